/**
 * The timestamps (ms) of one key's counted requests, oldest first. Expired ones are skipped by
 * moving `head`, not by copying the array; the array is compacted in place once most of it is
 * dead, so the work per request is proportional to what expires.
 */
export class SlidingLog {
  times: number[] = [];
  head = 0;
  /** When this key was last counted or refused; a key untouched for a whole window is all expired. */
  touched = 0;
  /** The max its last request was held to (a `max` function may give each key its own). */
  limit = 0;
  /** `blockDuration`: until when (ms) every request of this key is refused. */
  blockedUntil = 0;

  /** Drops timestamps at or before `cutoff` and returns how many remain. */
  expire(cutoff: number): number {
    const times = this.times;
    let head = this.head;
    while (head < times.length && times[head]! <= cutoff) head++;
    if (head === times.length) {
      times.length = 0;
      head = 0;
    } else if (head >= 32 && head * 2 >= times.length) {
      times.copyWithin(0, head);
      times.length -= head;
      head = 0;
    }
    this.head = head;
    return times.length - head;
  }

  /** The oldest live timestamp; only meaningful when `expire` returned more than 0. */
  oldest(): number {
    return this.times[this.head]!;
  }
}
