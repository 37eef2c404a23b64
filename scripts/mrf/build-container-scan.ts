/**
 * Assembles scripts/mrf/container-scan.wat with WABT (the `wabt` package, a development
 * dependency) and, run as a script, writes its bytes into container-scan-wasm.ts, which the
 * converter loads (container-scan.ts): the converter needs no assembler at run time, and
 * test/mrf/container-scan.test.ts checks that the committed bytes are the .wat file's.
 * Usage: `npx tsx scripts/mrf/build-container-scan.ts`
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import wabt from 'wabt';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/**
 * The WebAssembly binary of container-scan.wat.
 * @throws WABT's message (file, line, column) when the text does not assemble or validate.
 */
export async function assembleContainerScan(): Promise<Uint8Array> {
  const file = path.join(HERE, 'container-scan.wat');
  const tools = await wabt();
  const mod = tools.parseWat(file, await readFile(file, 'utf8'));
  try {
    mod.validate();
    return new Uint8Array(mod.toBinary({}).buffer);
  } finally {
    mod.destroy();
  }
}

/** The TypeScript module holding `bytes`, as container-scan-wasm.ts is written. */
export function wasmModuleSource(bytes: Uint8Array): string {
  const b64 = Buffer.from(bytes).toString('base64');
  return `/** container-scan.wat assembled by build-container-scan.ts (do not edit): ${bytes.length} bytes, base64. */\n` +
    `export const CONTAINER_SCAN_WASM = '${b64}';\n`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const bytes = await assembleContainerScan();
  await writeFile(path.join(HERE, 'container-scan-wasm.ts'), wasmModuleSource(bytes));
  console.log(`container-scan-wasm.ts: ${bytes.length} bytes`);
}
