// Validator: mathutil.mjs exports a working add(); package.json untouched.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const checks = [];
try {
  const mod = await import(pathToFileURL(path.resolve('mathutil.mjs')).href);
  checks.push({ name: 'add_exported', status: typeof mod.add === 'function' ? 'passed' : 'failed' });
  const cases = [[1, 2, 3], [-4, 4, 0], [0.5, 0.25, 0.75]];
  const ok = typeof mod.add === 'function' && cases.every(([a, b, s]) => mod.add(a, b) === s);
  checks.push({ name: 'add_correct', status: ok ? 'passed' : 'failed', message: ok ? '' : 'add() returned a wrong sum' });
} catch (e) {
  checks.push({ name: 'add_exported', status: 'failed', message: `import failed: ${e.message}` });
}
const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const untouched = pkg.name === 'demo-math' && Object.keys(pkg).length === 4;
checks.push({ name: 'constraint_package_json_untouched', status: untouched ? 'passed' : 'failed' });
console.log(JSON.stringify({ checks }));
