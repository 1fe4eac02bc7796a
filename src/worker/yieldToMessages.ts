/** A task boundary: lets messages queued for this worker in (a newer job, a cancellation) before work goes on. */
export const yieldToMessages = (): Promise<void> => new Promise<void>((resolve) => setTimeout(resolve, 0));
