import { render } from 'preact';
import type { MountWindow } from './lib/types';
import css from './styles/window.css?inline';
import { Widget } from './Widget';

/**
 * Entry of the lazily loaded chunk (dist/widget-assets/window-<hash>.js). The loader imports it
 * on the launcher's first hover, focus or click and calls `mount` once per widget instance.
 */
export const mount: MountWindow = (el, addCss) => {
  addCss(css);
  return (props) => render(props ? <Widget {...props} /> : null, el);
};
