/** The registries' facts the first screen shows, built by vite.config.ts (`builtModules()`): see ./registryFacts.ts. */
declare module 'virtual:chunkscope-registry-facts' {
  const facts: import('./registryFacts').RegistryFacts;
  export default facts;
}
