/**
 * The CLI on a 50 MiB file (the corpus repeated), in this process, output to stdout (redirect it): time and max RSS.
 *   node --import tsx bench/cli-50mib.ts --strategy token --unit cl100k_base --size 512 --overlap 64 > /dev/null
 */
import { writeFileSync } from 'node:fs';
import { makeInput } from './scale-case';
import { main } from '../src/cli/main';
const path = '/tmp/chunkscope-50mib.txt';
writeFileSync(path, makeInput('english', 50));
const before = process.memoryUsage().rss;
const t = performance.now();
const code = await main(['chunk', path, ...process.argv.slice(2)]);
process.stderr.write(`exit ${code}, ${((performance.now() - t) / 1000).toFixed(1)} s, max RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB (RSS before ${(before / 2 ** 20).toFixed(0)} MiB)\n`);
