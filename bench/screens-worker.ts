/**
 * The data worker's memory in headless Chromium, for the screens benchmark: the worker is reached
 * through a CDP session of its page (`Target.setAutoAttach`, non-flattened, so messages go through
 * `Target.sendMessageToTarget`, which a playwright CDPSession can send). Two figures, in bytes:
 * - `jsHeap`: `Runtime.getHeapUsage().usedSize`, the worker isolate's used JS heap;
 * - `wasm`: the byte length of every WebAssembly.Memory the worker created or instantiated
 *   (DuckDB-WASM's, parquet-wasm's), noted by a hook evaluated in the worker before its first
 *   script runs (the session attaches with `waitForDebuggerOnStart`, then resumes it). A memory's
 *   `buffer.byteLength` is what the module has grown it to, which it never gives back.
 * `Runtime.queryObjects` could find the memories without a hook, but does not answer on a worker
 * target in Chromium 156 (tried: no reply within 60 s). Renderer-process RSS is not read: the
 * worker shares its process with the page.
 */
import type { BrowserContext, CDPSession, Page } from 'playwright-core';

/** The worker's memory, bytes. */
export interface WorkerMemory {
  jsHeap: number;
  wasm: number;
}

/** Notes every WebAssembly.Memory of the worker in `self.__benchWasmMemories`. */
const HOOK = `(() => {
  const mems = self.__benchWasmMemories = [];
  const note = (inst) => { try { for (const v of Object.values(inst.exports)) if (v instanceof WebAssembly.Memory && !mems.includes(v)) mems.push(v); } catch {} };
  const Mem = WebAssembly.Memory;
  WebAssembly.Memory = new Proxy(Mem, { construct(t, a, n) { const m = Reflect.construct(t, a, n); mems.push(m); return m; } });
  const inst = WebAssembly.instantiate;
  WebAssembly.instantiate = function (...a) { return inst.apply(this, a).then((r) => { note(r.instance ?? r); return r; }); };
  const ist = WebAssembly.instantiateStreaming;
  if (ist) WebAssembly.instantiateStreaming = function (...a) { return ist.apply(this, a).then((r) => { note(r.instance); return r; }); };
})()`;

interface CdpReply {
  result?: { result?: { value?: unknown }; usedSize?: number };
  error?: { message: string };
}

/** A probe of the workers of one page; create it before the page navigates. */
export interface WorkerProbe {
  /** The memory of the page's worker(s) now, summed; null when no worker has attached. @throws on a CDP failure or a 20 s timeout. */
  measure(): Promise<WorkerMemory | null>;
}

/**
 * Attaches to the workers `page` will start (call before `page.goto`), hooking each before it runs.
 * @throws when the CDP session cannot be opened.
 */
export async function probeWorkers(context: BrowserContext, page: Page): Promise<WorkerProbe> {
  const cdp: CDPSession = await context.newCDPSession(page);
  const sessions: string[] = [];
  const pending = new Map<number, (reply: CdpReply) => void>();
  let nextId = 0;
  const send = (sessionId: string, method: string, params: object = {}): Promise<CdpReply> => new Promise((resolve, reject) => {
    const id = ++nextId;
    const timer = setTimeout(() => {
      pending.delete(id);
      reject(new Error(`worker CDP ${method}: no answer within 20 s`));
    }, 20_000);
    pending.set(id, (reply) => {
      clearTimeout(timer);
      pending.delete(id);
      if (reply.error) reject(new Error(`worker CDP ${method}: ${reply.error.message}`));
      else resolve(reply);
    });
    cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) }).catch(reject);
  });
  cdp.on('Target.receivedMessageFromTarget', (e: { message: string }) => {
    const reply = JSON.parse(e.message) as CdpReply & { id?: number };
    if (reply.id !== undefined) pending.get(reply.id)?.(reply);
  });
  cdp.on('Target.attachedToTarget', (e: { sessionId: string; targetInfo: { type: string }; waitingForDebugger: boolean }) => {
    const resume = () => (e.waitingForDebugger ? send(e.sessionId, 'Runtime.runIfWaitingForDebugger') : Promise.resolve());
    if (e.targetInfo.type !== 'worker') {
      void resume().catch(() => undefined);
      return;
    }
    sessions.push(e.sessionId);
    // the hook first, then the worker runs; a failed hook leaves `wasm` at 0, never the worker paused
    void send(e.sessionId, 'Runtime.evaluate', { expression: HOOK }).catch(() => undefined).finally(() => void resume().catch(() => undefined));
  });
  await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: false });
  return {
    async measure() {
      if (sessions.length === 0) return null;
      let jsHeap = 0;
      let wasm = 0;
      for (const s of sessions) {
        const heap = await send(s, 'Runtime.getHeapUsage');
        jsHeap += heap.result?.usedSize ?? 0;
        const mem = await send(s, 'Runtime.evaluate', {
          expression: '(self.__benchWasmMemories || []).reduce((a, m) => a + m.buffer.byteLength, 0)', returnByValue: true,
        });
        wasm += Number(mem.result?.result?.value ?? 0);
      }
      return { jsHeap, wasm };
    },
  };
}
