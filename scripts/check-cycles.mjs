/**
 * `npm run check:cycles`: fails when the TypeScript files under packages/<name>/src import each
 * other in a cycle, and prints the cycles.
 *
 * Every relative import counts: `import`, `import type`, `export … from`, and `import()`. Type-only
 * imports count too, because a type cycle ties modules together as much as a runtime one does (the
 * services once held a type-only cycle together with lazy getters). Specifiers are read with
 * TypeScript's own pre-processor, so comments and strings never look like imports; `./x.js` names
 * `./x.ts`, as it does for the compiler.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sourceDirs = process.argv.length > 2 ? process.argv.slice(2) : packageSourceDirs();

function packageSourceDirs() {
  const packages = path.join(root, 'packages');
  return readdirSync(packages)
    .map((name) => path.join(packages, name, 'src'))
    .filter((dir) => existsSync(dir));
}

function typeScriptFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return typeScriptFiles(full);
    return /\.[cm]?tsx?$/.test(name) ? [full] : [];
  });
}

/** The file a relative specifier names, or null (a package, or a file that is not TypeScript). */
function resolve(fromFile, specifier) {
  if (!specifier.startsWith('.')) return null;
  const base = path.resolve(path.dirname(fromFile), specifier);
  const stem = base.replace(/\.([cm]?)js$/, '.$1ts');
  const candidates = [stem, `${stem}x`, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')];
  return candidates.find((file) => existsSync(file) && statSync(file).isFile()) ?? null;
}

function importGraph(files) {
  const graph = new Map();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, false);
    const targets = importedFiles.map(({ fileName }) => resolve(file, fileName)).filter(Boolean);
    graph.set(file, [...new Set(targets)].sort());
  }
  return graph;
}

/** Tarjan's algorithm: the groups of files that all reach each other. */
function stronglyConnected(graph) {
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const groups = [];
  function visit(node) {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node), index.get(next)));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const group = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    groups.push(group);
  }
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return groups;
}

/** The shortest cycle through `start` inside its group, found breadth first. */
function shortestCycle(graph, group, start) {
  const inGroup = new Set(group);
  const cameFrom = new Map();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift();
    for (const next of graph.get(node) ?? []) {
      if (!inGroup.has(next)) continue;
      if (next === start) {
        const cycle = [node];
        while (cycle[0] !== start) cycle.unshift(cameFrom.get(cycle[0]));
        return cycle;
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, node);
        queue.push(next);
      }
    }
  }
  return [start];
}

/** One cycle through each file of each tangle, each cycle printed once. */
function cycles(graph) {
  const found = new Map();
  for (const group of stronglyConnected(graph)) {
    const isCycle = group.length > 1 || (graph.get(group[0]) ?? []).includes(group[0]);
    if (!isCycle) continue;
    for (const file of [...group].sort()) {
      const cycle = shortestCycle(graph, group, file);
      const first = cycle.indexOf([...cycle].sort()[0]);
      const rotated = [...cycle.slice(first), ...cycle.slice(0, first)];
      found.set(rotated.join('\0'), rotated);
    }
  }
  return [...found.values()];
}

const files = sourceDirs.flatMap((dir) => typeScriptFiles(path.resolve(dir)));
const found = cycles(importGraph(files));
const show = (file) => path.relative(root, file);
if (found.length === 0) {
  console.log(`No import cycles in ${files.length} files under ${sourceDirs.map(show).join(', ')}.`);
} else {
  console.error(`${found.length} import cycle${found.length === 1 ? '' : 's'}:`);
  for (const cycle of found) console.error(`  ${[...cycle, cycle[0]].map(show).join(' -> ')}`);
  process.exitCode = 1;
}
