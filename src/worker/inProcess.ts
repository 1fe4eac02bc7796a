import type { Endpoint } from './rpc';

/**
 * A worker service served in this thread over a MessageChannel: the same structured clone and transfers as a real
 * Worker, for tests and Node benchmarks (Node has MessageChannel; it has no Web Worker). `terminate()` closes the
 * channel, as terminating a worker drops what it was doing.
 */
export interface InProcessWorker extends Endpoint {
  terminated: boolean;
  onerror: ((event: ErrorEvent) => void) | null;
  terminate(): void;
}

export function inProcessWorker(serve: (end: Endpoint) => void): InProcessWorker {
  const channel = new MessageChannel();
  serve(channel.port2 as unknown as Endpoint);
  const port = channel.port1 as unknown as Endpoint;
  return {
    terminated: false,
    onerror: null,
    postMessage: (m, t) => port.postMessage(m, t),
    addEventListener: (type, l) => port.addEventListener(type, l),
    removeEventListener: (type, l) => port.removeEventListener(type, l),
    start: () => port.start?.(),
    terminate() {
      this.terminated = true;
      channel.port1.close();
      channel.port2.close();
    },
  };
}
