/**
 * Something a global setup makes once per Vitest run though several projects call that setup (in
 * the one Vitest process): made by the first, shared by the others, dropped by the last teardown.
 */
interface Shared<T> {
  made: Promise<T>;
  users: number;
}

const registry = globalThis as { admissionOncePerRun?: Map<string, Shared<unknown>> };

/** The thing named `name`, made once; the teardown to return from the setup. */
export async function oncePerRun<T>(
  name: string,
  make: () => Promise<T>,
  drop: (made: T) => Promise<void>,
): Promise<{ value: T; teardown: () => Promise<void> }> {
  const all = (registry.admissionOncePerRun ??= new Map());
  let shared = all.get(name) as Shared<T> | undefined;
  if (!shared) {
    shared = { made: make(), users: 0 };
    all.set(name, shared);
  }
  shared.users += 1;
  const value = await shared.made;
  const teardown = async () => {
    shared.users -= 1;
    if (shared.users > 0) return;
    all.delete(name);
    await drop(value);
  };
  return { value, teardown };
}
