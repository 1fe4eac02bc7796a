import type { ComparedMetric, ComparedQuestion, Significance, SignificanceOptions } from '../core/eval/significance';

/** The significance worker's one call: two runs' per-question figures in, the comparison out. */
export interface SignificanceWorkerApi {
  compare(input: { a: ComparedQuestion[]; b: ComparedQuestion[]; options: SignificanceOptions<ComparedMetric> }): Promise<Significance<ComparedMetric>>;
}
