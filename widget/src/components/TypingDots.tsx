/** The three-dot loader shown while the reply has not started. */
export function TypingDots() {
  return (
    <div class="m assistant dots" role="status" aria-label="The assistant is typing">
      <i />
      <i />
      <i />
    </div>
  );
}
