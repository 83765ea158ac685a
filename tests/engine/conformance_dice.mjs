// Roll each notation read from stdin (a JSON list) with rpg-dice-roller under its "min" and
// "max" number generators; print {notation: {"min": total, "max": total} | {"error": msg}}.
import {DiceRoll, NumberGenerator} from '@dice-roller/rpg-dice-roller';

const {engines, generator} = NumberGenerator;
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const out = {};
for (const notation of JSON.parse(chunks.join(''))) {
  const row = {};
  try {
    for (const name of ['min', 'max']) {
      generator.engine = engines[name];
      row[name] = new DiceRoll(notation).total;
    }
  } catch (err) {
    out[notation] = {error: `${err.name}: ${err.message}`};
    continue;
  }
  out[notation] = row;
}
process.stdout.write(JSON.stringify(out));
