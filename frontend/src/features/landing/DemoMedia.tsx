import { brand } from '../../theme/theme';
import PauseRounded from '@mui/icons-material/PauseRounded';
import PlayArrowRounded from '@mui/icons-material/PlayArrowRounded';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import { alpha, type Theme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useEffect, useRef, useState } from 'react';
import { BELOW_768 } from './landingContent';

const DESCRIPTION =
  'Demo: on a coffee shop’s website, a visitor opens the Botsmith chat bubble, asks which beans suit espresso, and the bot answers in seconds.';

/** Starts a video; browsers may refuse (autoplay policy, data saver), which is not an error. */
function play(video: HTMLVideoElement, onRefused: () => void): void {
  Promise.resolve()
    .then(() => video.play())
    .catch(onRefused);
}

/**
 * The #info demo: a looping video on desktop, a still picture on phones. The video downloads only
 * when it scrolls into view and pauses when it leaves; it never autoplays for people who ask for
 * reduced motion, and a button pauses it.
 */
export function DemoMedia() {
  // Not `noSsr`: the page is prerendered as on a desktop, and hydration must see that same first
  // render; a phone switches to the picture right after (the video has preload="none").
  const onPhone = useMediaQuery(BELOW_768);
  const reduceMotion = useMediaQuery('(prefers-reduced-motion: reduce)');
  const video = useRef<HTMLVideoElement>(null);
  const [playing, setPlaying] = useState(false);
  const [pausedByUser, setPausedByUser] = useState(false);

  useEffect(() => {
    const element = video.current;
    if (!element || reduceMotion || pausedByUser || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      ([entry]) => {
        if (entry?.isIntersecting) play(element, () => setPlaying(false));
        else element.pause();
      },
      { threshold: 0.25 },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [onPhone, reduceMotion, pausedByUser]);

  const frame = (t: Theme) => ({
    position: 'relative' as const,
    borderRadius: 4,
    overflow: 'hidden',
    border: `1px solid ${t.palette.divider}`,
    boxShadow: `0 40px 80px -30px ${alpha(t.palette.common.black, 0.35)}`,
    bgcolor: brand.demoBackdrop,
  });

  if (onPhone) {
    return (
      <Box sx={[frame, { maxWidth: 360, mx: 'auto' }]}>
        <Box
          component="img"
          src="/landing/demo-mobile.webp"
          alt={DESCRIPTION}
          width={630}
          height={1163}
          loading="lazy"
          decoding="async"
          sx={{ display: 'block', width: '100%', height: 'auto' }}
        />
      </Box>
    );
  }

  const toggle = () => {
    const element = video.current;
    if (!element) return;
    if (element.paused) {
      setPausedByUser(false);
      play(element, () => setPlaying(false));
    } else {
      setPausedByUser(true);
      element.pause();
    }
  };

  return (
    <Box sx={frame}>
      <Box
        component="video"
        ref={video}
        aria-label={DESCRIPTION}
        poster="/landing/demo-poster.webp"
        width={960}
        height={600}
        muted
        loop
        playsInline
        preload="none"
        onPlay={() => setPlaying(true)}
        onPause={() => setPlaying(false)}
        sx={{ display: 'block', width: '100%', height: 'auto', aspectRatio: '960 / 600' }}
      >
        <source src="/landing/demo.webm" type="video/webm" />
        <source src="/landing/demo.mp4" type="video/mp4" />
      </Box>
      <IconButton
        onClick={toggle}
        aria-label={playing ? 'Pause the demo' : 'Play the demo'}
        size="small"
        sx={(t) => ({
          position: 'absolute',
          left: 12,
          bottom: 12,
          color: 'common.white',
          bgcolor: brand.scrim,
          '&:hover': { bgcolor: alpha(t.palette.common.black, 0.75) },
        })}
      >
        {playing ? <PauseRounded fontSize="small" /> : <PlayArrowRounded fontSize="small" />}
      </IconButton>
    </Box>
  );
}
