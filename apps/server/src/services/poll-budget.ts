/**
 * A per-second budget of status polls. Beyond it polls get 408 and the client backs off
 * (docs/product.md#job-monitoring), which keeps the process answering streams and uploads during a launch peak.
 */
export class PollBudget {
  private windowStart = 0;
  private used = 0;

  constructor(
    private readonly perSecond: number,
    private readonly now: () => number = Date.now,
  ) {}

  tryTake(): boolean {
    const now = this.now();
    if (now - this.windowStart >= 1000) {
      this.windowStart = now;
      this.used = 0;
    }
    this.used++;
    return this.used <= this.perSecond;
  }
}
