/**
 * The runtime's internal entry (D175): the compiled model, for the runtime's own tests and
 * benchmarks. Not part of the package (`runtime/index.ts` is); code outside runtime/ and tests/
 * may not import it (tests/architecture/importZones.test.ts).
 */
export { compile, type CompiledModel, type FieldInstance } from './model';
export { atLeastLength } from './textLength';
