import { SimplePage } from '../../layout/SimplePage';

/** /widget?botId= (widget issue). Placeholder until that issue lands: renders its heading only. */
export function WidgetPage() {
  return <SimplePage title="Chat Widget" />;
}
