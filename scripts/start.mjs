/** `npm start`: builds the server when its compiled output is missing or stale, then serves. */
import { buildAndRunServerFile } from './server-dist.mjs';

await buildAndRunServerFile('dist/main.js', process.argv.slice(2));
