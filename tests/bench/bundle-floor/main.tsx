/**
 * The smallest page built with the mandated stack (the bundle benchmark's baseline, D29): one route
 * (TanStack Router), one query (TanStack Query), one field (TanStack Form) validated with zod/mini,
 * one Radix NavigationMenu link, rendered with react-dom. Whatever the product's first page weighs
 * above this is ours.
 */
import * as NavigationMenu from '@radix-ui/react-navigation-menu';
import { useForm } from '@tanstack/react-form';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { createRoot } from 'react-dom/client';
import * as z from 'zod/mini';

const Name = z.string().check(z.minLength(1, 'Required'));

function Page() {
  const status = useQuery({
    queryKey: ['status'],
    queryFn: () => fetch('/status').then((r) => r.json()),
  });
  const form = useForm({ defaultValues: { name: '' } });
  return (
    <main>
      <NavigationMenu.Root>
        <NavigationMenu.List>
          <NavigationMenu.Item>
            <NavigationMenu.Link href="/about">About</NavigationMenu.Link>
          </NavigationMenu.Item>
        </NavigationMenu.List>
      </NavigationMenu.Root>
      <p>{String(status.data ?? '')}</p>
      <form.Field
        name="name"
        validators={{ onChange: ({ value }) => Name.safeParse(value).error?.issues[0]?.message }}
      >
        {(field) => (
          <input
            aria-label="Name"
            value={field.state.value}
            onChange={(e) => field.handleChange(e.target.value)}
          />
        )}
      </form.Field>
    </main>
  );
}

const router = createRouter({ routeTree: createRootRoute({ component: Page }) });
const queryClient = new QueryClient();
createRoot(document.getElementById('root') as HTMLElement).render(
  <QueryClientProvider client={queryClient}>
    <RouterProvider router={router} />
  </QueryClientProvider>,
);
