import { render } from 'preact';
import texts from '#texts';
import type { MountWindow } from './lib/types';
import css from './styles/window.css?inline';
import { setProof } from './lib/api';
import { Widget } from './Widget';

/**
 * Entry of the lazily loaded chunk (dist/widget-assets/window-<language>-<hash>.js), built once
 * per language (build.mjs). The loader imports the one for the visitor's language on the
 * launcher's first hover, focus or click and calls `mount` once per widget instance.
 */
/** The launcher's labels in this language (the loader knows English only until this chunk arrives). */
export { texts };

export const mount: MountWindow = (el, addCss) => {
  addCss(css);
  return (props) => {
    // Before the render: the calls it makes (a rating, a lead, a person's replies) carry the proof.
    if (props) setProof(props.visitor);
    render(props ? <Widget {...props} t={texts} addCss={addCss} /> : null, el);
  };
};
