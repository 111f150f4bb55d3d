// How long the event loop was held while a bench's work ran: a timer that should tick every
// `everyMs`, and the longest gap seen between two of its ticks.

/** Starts the timer; the function it returns stops it and answers the longest gap (ms). */
export function watchLoopGap(everyMs = 5): () => number {
  let last = performance.now();
  let longest = 0;
  const tick = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, everyMs);
  return () => {
    clearInterval(tick);
    return longest;
  };
}
