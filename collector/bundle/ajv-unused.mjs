// Stands in for `ajv/dist/2020.js` in the collector's bundle (collector/bundle/build.mjs).
// @platformatic/kafka compiles an Ajv validator for every option schema of every client when its
// modules load, but runs them only for a client created with `strict: true` (base.js
// kValidateOptions returns early otherwise); the collector never sets `strict`, so those validators
// never run. Measured: the compiled validators and ajv cost ≈ 16 MiB of RSS in the bundle.
// A validator that is called anyway throws, so a change to `strict: true` fails loudly.
const unused = () => {
  throw new Error("ragmeter collector bundle: @platformatic/kafka option validation (strict: true) is not bundled; see collector/bundle/ajv-unused.mjs");
};
export class Ajv2020 {
  addKeyword() {
    return this;
  }
  addFormat() {
    return this;
  }
  addSchema() {
    return this;
  }
  compile() {
    return unused;
  }
  errorsText() {
    return "";
  }
}
export default Ajv2020;
