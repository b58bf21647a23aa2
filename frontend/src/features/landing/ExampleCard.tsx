import { brand } from '../../theme/theme';
import ZoomInRounded from '@mui/icons-material/ZoomInRounded';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import { alpha } from '@mui/material/styles';
import { EXAMPLE_CARD_SIZES, exampleCardSrc, exampleCardSrcSet, exampleImage, type Example } from './landingContent';

export interface ExampleCardProps {
  example: Example;
  /** Position in the fan: -2 (far left) to 2 (far right). */
  offset: number;
  fanned: boolean;
  raised: boolean;
  onRaise: (raised: boolean) => void;
  onOpen: () => void;
}

/** One card of the 'Fits Any Brand' fan; a button that opens the picture in the viewer. */
export function ExampleCard({ example, offset, fanned, raised, onRaise, onOpen }: ExampleCardProps) {
  const distance = Math.abs(offset);
  // Fanned: spread along an arc. Stacked: a tight pile that still leaves every card a strip wide
  // enough to tap (at least 24 px). The fan's `data-fanned` picks one in CSS, so the prerendered
  // page can fan out before the app runs (scripts/prerender.mjs).
  const stacked = `translateX(${offset * 28}px) translateY(${distance * 4}px) rotate(${offset * 2.5}deg)`;
  const spread = `translateX(calc(${offset} * var(--fan-spread))) translateY(${distance * distance * 7 - (raised ? 22 : 0)}px) rotate(${offset * 6}deg) scale(${raised ? 1.05 : 1})`;

  return (
    <ButtonBase
      aria-label={`View the ${example.name} example`}
      data-fanned={fanned}
      data-raised={raised}
      onClick={onOpen}
      onMouseEnter={() => onRaise(true)}
      onMouseLeave={() => onRaise(false)}
      onFocus={() => onRaise(true)}
      onBlur={() => onRaise(false)}
      sx={(t) => ({
        position: 'absolute',
        top: 0,
        left: '50%',
        width: 'var(--fan-card)',
        ml: 'calc(var(--fan-card) / -2)',
        display: 'block',
        borderRadius: 3,
        overflow: 'hidden',
        textAlign: 'left',
        bgcolor: 'common.white',
        border: `1px solid ${t.palette.divider}`,
        boxShadow: raised
          ? `0 30px 60px -18px ${alpha(t.palette.common.black, 0.35)}`
          : `0 14px 34px -16px ${alpha(t.palette.common.black, 0.28)}`,
        zIndex: raised ? 10 : 5 - distance,
        transform: stacked,
        transformOrigin: '50% 100%',
        transition: 'transform 650ms cubic-bezier(.2,.8,.2,1) 0ms, box-shadow 250ms',
        '[data-fanned="true"] > &': {
          transform: spread,
          transition: `transform 650ms cubic-bezier(.2,.8,.2,1) ${raised ? 0 : distance * 60}ms, box-shadow 250ms`,
        },
        '&.Mui-focusVisible': { outline: `3px solid ${t.palette.primary.main}`, outlineOffset: 3 },
        '@media (hover: hover)': {
          '&:hover .example-card-hint, &.Mui-focusVisible .example-card-hint': { opacity: 1 },
        },
      })}
    >
      <Box
        component="img"
        src={exampleCardSrc(example)}
        srcSet={exampleCardSrcSet(example)}
        sizes={EXAMPLE_CARD_SIZES}
        alt=""
        width={exampleImage.card.width}
        height={exampleImage.card.height}
        loading="lazy"
        decoding="async"
        sx={{ display: 'block', width: '100%', height: 'auto', bgcolor: 'grey.100' }}
      />
      <Box
        sx={{
          px: 1.5,
          py: 1,
          fontWeight: 700,
          fontSize: { xs: '0.75rem', sm: '0.875rem' },
          color: 'text.primary',
          borderTop: 1,
          borderColor: 'divider',
          whiteSpace: 'nowrap',
          overflow: 'hidden',
          textOverflow: 'ellipsis',
        }}
      >
        {example.name}
      </Box>
      <Box
        className="example-card-hint"
        aria-hidden="true"
        sx={(t) => ({
          position: 'absolute',
          inset: 0,
          display: 'grid',
          placeItems: 'center',
          opacity: 0,
          transition: 'opacity 200ms',
          bgcolor: alpha(t.palette.common.black, 0.45),
          color: 'common.white',
          fontWeight: 700,
        })}
      >
        <Box
          sx={{
            display: 'flex',
            alignItems: 'center',
            gap: 0.75,
            px: 1.5,
            py: 0.75,
            borderRadius: 999,
            bgcolor: brand.scrim,
          }}
        >
          <ZoomInRounded fontSize="small" />
          Click to view
        </Box>
      </Box>
    </ButtonBase>
  );
}
