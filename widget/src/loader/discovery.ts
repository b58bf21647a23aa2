/** float: a launcher on a customer's page; preview: the dashboard's live preview; inline: the /widget page. */
export type Mode = 'float' | 'preview' | 'inline';

// Set once by discover(); module variables rather than an object, see index.ts.
export let script: HTMLScriptElement;
export let botId: string;
export let mode: Mode;
/** The API's origin: the one widget.js was loaded from. */
export let apiOrigin: string;

/** Reads the script tag this run of widget.js came from; `botId` stays empty when it names none. */
export function discover(): void {
  // Set while a classic script runs, which this IIFE always is (async and defer included); the
  // optional chains below cover the null of any other way of running it.
  script = document.currentScript as HTMLScriptElement;
  const data = script?.dataset;
  botId = data?.botId as string;
  if (!botId) return;
  mode = data.inline == 'true' ? 'inline' : data.preview == 'true' ? 'preview' : 'float';
  apiOrigin = new URL(script.src).origin;
}
