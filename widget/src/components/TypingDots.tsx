/** The three-dot loader shown while the reply has not started. */
export function TypingDots({ label }: { label: string }) {
  return (
    <div class="m assistant dots" role="status" aria-label={label}>
      <i />
      <i />
      <i />
    </div>
  );
}
