// Roll notations with the engine inside Pyodide (the browser's Python) under node.
// stdin: JSON [[notation, seed], ...]; stdout: JSON list of RollResult.to_dict() or errors.
import {readFileSync, readdirSync} from 'node:fs';
import {join, dirname} from 'node:path';
import {fileURLToPath} from 'node:url';
import {loadPyodide} from 'pyodide';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);

const pyodide = await loadPyodide();
pyodide.FS.mkdirTree('/lib/rb/rollbook/engine/dice');
pyodide.FS.writeFile('/lib/rb/rollbook/__init__.py', readFileSync(join(root, 'rollbook', '__init__.py')));
for (const sub of ['rollbook/engine', 'rollbook/engine/dice']) {
  for (const name of readdirSync(join(root, sub))) {
    if (name.endsWith('.py')) {
      pyodide.FS.writeFile(`/lib/rb/${sub}/${name}`, readFileSync(join(root, sub, name)));
    }
  }
}
pyodide.globals.set('requests_json', chunks.join(''));
const out = pyodide.runPython(`
import json, random, sys
sys.path.insert(0, "/lib/rb")
from rollbook.engine.dice import DiceError, roll
rows = []
for notation, seed in json.loads(requests_json):
    try:
        rows.append(roll(notation, random.Random(seed)).to_dict())
    except DiceError as err:
        rows.append({"error": err.message})
json.dumps(rows, sort_keys=True)
`);
process.stdout.write(out);
