/**
 * The runtime's internal entry (D175): the compiled model, for the runtime's own tests and
 * benchmarks. Not part of the package (`runtime/index.ts` is); code outside runtime/ and tests/
 * may not import it (tests/architecture/importZones.test.ts).
 */
export { compile, type CompiledModel, type FieldInstance } from './model';
/** Counters the runtime's tests hook to count walks and validated keys (not for integrators). */
export { instrumentation } from './compiledModel';
export { atLeastLength } from './textLength';
