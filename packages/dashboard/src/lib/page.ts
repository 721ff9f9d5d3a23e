/**
 * A page in a chunk of its own, as React.lazy makes it, whose chunk can be fetched early: the
 * page the address opens on starts loading with the app, beside the first API calls. A page whose
 * chunk has arrived renders at once; React.lazy would still show the loading placeholder for a
 * moment, and React keeps a placeholder at least 300 ms before revealing what replaces it.
 */
import { type ComponentType, createElement, use } from 'react';

export function page<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
  /** The addresses this page answers: its chunk is fetched at once when the app opens on one. */
  opensOn?: RegExp,
): ComponentType<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const preload = () =>
    (loading ??= load().then((module) => {
      loaded = module.default;
      return module.default;
    }));
  if (opensOn?.test(window.location.pathname)) preload();
  return function Page(props: P) {
    return createElement(loaded ?? use(preload()), props);
  };
}
