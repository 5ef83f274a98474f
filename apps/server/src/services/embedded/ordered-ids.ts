/**
 * Waiting job ids in queue order, keyed by their sequence number, so a position is a binary search
 * instead of a scan: polls and stream fan-out ask for positions far more often than the queue moves.
 */
export class OrderedIds {
  private readonly seqs: number[] = [];
  private readonly ids: string[] = [];
  private readonly seqById = new Map<string, number>();

  get size(): number {
    return this.ids.length;
  }

  has(id: string): boolean {
    return this.seqById.has(id);
  }

  insert(id: string, seq: number): void {
    if (this.seqById.has(id)) return;
    const at = this.lowerBound(seq);
    this.seqs.splice(at, 0, seq);
    this.ids.splice(at, 0, id);
    this.seqById.set(id, seq);
  }

  /** Removes and returns the first id with its sequence number. */
  shift(): { id: string; seq: number } | undefined {
    const id = this.ids.shift();
    const seq = this.seqs.shift();
    if (id === undefined || seq === undefined) return undefined;
    this.seqById.delete(id);
    return { id, seq };
  }

  /** 0-based index of the id, or -1. */
  indexOf(id: string): number {
    const seq = this.seqById.get(id);
    return seq === undefined ? -1 : this.lowerBound(seq);
  }

  private lowerBound(seq: number): number {
    let low = 0;
    let high = this.seqs.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((this.seqs[mid] as number) < seq) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}
