// The architecture check (`npm run depcheck`): dependency-cruiser holds the direction of the layers
// described in DESIGN.md "Layout" and forbids circles. Top to bottom:
//   cli → experiments → bench → skills → evolution → zinfra/runtime, zinfra/recording → critic
//   → zinfra/policy (adapters in zinfra/policy/<adapter>/) → sim (worlds) → models → zinfra/protocol
// and the zinfra/*.ts utility files, which anything may use.
// zinfra/ros2 (the ROS 2 node) stands beside the runtime: only cli/ imports it, and it sees of the
// worlds only what a robot has (observed features, the task catalog).
// Type-only imports count: they are dependencies of the design even though tsc erases them.
// Paths are relative to the folder depcruise runs in (the repository root).

/** Utility files at the top of zinfra/ that any layer may use. */
const UTILITIES = '^zinfra/(atomic-write|child-process|package-root|seeded-random)\\.ts$';
/**
 * The world contracts: the World and Env ports, the worlds' errors, perturbation files and the
 * name → module table (which loads an adapter only by dynamic import). Everything else under sim/
 * belongs to a world (sim/tabletop/ and sim/point-mass/ are two).
 */
const WORLD_CONTRACTS = '^sim/(world\\.ts|env\\.ts|errors\\.ts|worlds\\.ts|perturbation/)';
/** A policy adapter folder: zinfra/policy/<adapter>/... (files at the top of zinfra/policy/ are the port). */
const POLICY_ADAPTER = '^zinfra/policy/[^/]+/';
/** npm packages resolve here (they are not followed, only recorded). */
const NPM = '^node_modules/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No circular dependencies anywhere: every module depends only downward, so no chain of imports comes back to where it started.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-import-of-cli',
      comment: 'Nothing imports cli/: the zetta command is the top of the stack and only calls the modules below it.',
      severity: 'error',
      from: { pathNot: '^cli/' },
      to: { path: '^cli/' },
    },
    {
      name: 'no-upward-to-experiments',
      comment: 'Nothing below experiments/ imports experiments/: only the CLI calls the experiments library (and experiments/ itself).',
      severity: 'error',
      from: { pathNot: '^(cli|experiments)/' },
      to: { path: '^experiments/' },
    },
    {
      name: 'bench-only-from-the-top',
      comment: 'Nothing but cli/ and experiments/ imports bench/: benchmarks live in one room that only the command and its experiments enter.',
      severity: 'error',
      from: { pathNot: '^(cli|experiments|bench)/' },
      to: { path: '^bench/' },
    },
    {
      name: 'critic-only-critic-and-protocol',
      comment: 'critic/ imports only critic/ and zinfra/protocol/ (plus npm packages and node builtins): the critic reads features and never imports a world (sim/) or a policy (zinfra/policy/).',
      severity: 'error',
      from: { path: '^critic/' },
      to: { pathNot: ['^critic/', '^zinfra/protocol/', NPM], dependencyTypesNot: ['core'] },
    },
    {
      name: 'sim-only-sim-protocol-utilities',
      comment: 'sim/ imports only sim/, zinfra/protocol/ and the zinfra utility files (plus npm packages and node builtins): worlds plug into the runtime, they do not reach up into it.',
      severity: 'error',
      from: { path: '^sim/' },
      to: { pathNot: ['^sim/', '^zinfra/protocol/', UTILITIES, NPM], dependencyTypesNot: ['core'] },
    },
    {
      name: 'protocol-only-protocol',
      comment: 'zinfra/protocol/ is the bottom floor: it imports only zinfra/protocol/ and npm packages.',
      severity: 'error',
      from: { path: '^zinfra/protocol/' },
      to: { pathNot: ['^zinfra/protocol/', NPM] },
    },
    {
      name: 'policy-only-policy-protocol-utilities',
      comment: 'zinfra/policy/ imports only zinfra/policy/, zinfra/protocol/ and the zinfra utility files (plus npm packages and node builtins): policies plug into the runtime through their port.',
      severity: 'error',
      from: { path: '^zinfra/policy/' },
      to: { pathNot: ['^zinfra/policy/', '^zinfra/protocol/', UTILITIES, NPM], dependencyTypesNot: ['core'] },
    },
    {
      name: 'policy-adapter-not-to-other-adapter',
      comment: 'A policy adapter folder zinfra/policy/<adapter>/ does not import another adapter folder; adapters share only the files at the top of zinfra/policy/.',
      severity: 'error',
      from: { path: '^zinfra/policy/([^/]+)/' },
      to: { path: POLICY_ADAPTER, pathNot: '^zinfra/policy/$1/' },
    },
    {
      name: 'runtime-recording-not-upward',
      comment: 'zinfra/runtime/ and zinfra/recording/ do not import evolution/, skills/, experiments/, bench/ or models/: those sit above the runtime or beside it.',
      severity: 'error',
      from: { path: '^zinfra/(runtime|recording)/' },
      to: { path: '^(evolution|skills|experiments|bench|models)/' },
    },
    {
      name: 'runtime-recording-not-to-world-adapter',
      comment: 'zinfra/runtime/ and zinfra/recording/ do not import a world: of sim/ they may import only the contracts (sim/world.ts, sim/env.ts, sim/errors.ts, sim/worlds.ts, sim/perturbation/).',
      severity: 'error',
      from: { path: '^zinfra/(runtime|recording)/' },
      to: { path: '^sim/', pathNot: WORLD_CONTRACTS },
    },
    {
      name: 'runtime-recording-not-to-policy-adapter',
      comment: 'zinfra/runtime/ and zinfra/recording/ do not import a policy adapter folder zinfra/policy/<adapter>/: they use the files at the top of zinfra/policy/, and reach adapters only through zinfra/policy/open-policy.ts.',
      severity: 'error',
      from: { path: '^zinfra/(runtime|recording)/' },
      to: { path: POLICY_ADAPTER },
    },
    {
      name: 'ros2-not-upward',
      comment: 'zinfra/ros2/ (the ROS 2 node, at the runtime\'s level) does not import evolution/, skills/, experiments/, bench/ or models/.',
      severity: 'error',
      from: { path: '^zinfra/ros2/' },
      to: { path: '^(evolution|skills|experiments|bench|models)/' },
    },
    {
      name: 'ros2-only-observed-world-parts',
      comment: 'zinfra/ros2/ imports of sim/ only the contracts, the quaternion helpers, the task catalog and the tabletop\'s observed features and feature schema: a robot has no simulator, so nothing privileged or physical is reachable.',
      severity: 'error',
      from: { path: '^zinfra/ros2/' },
      to: { path: '^sim/', pathNot: [WORLD_CONTRACTS, '^sim/math/quat\\.ts$', '^sim/tasks/', '^sim/tabletop/(observed-features|feature-schema)\\.ts$'] },
    },
    {
      name: 'ros2-not-to-policy-adapter',
      comment: 'zinfra/ros2/ reaches policies only through zinfra/policy/open-policy.ts and the port, never an adapter folder.',
      severity: 'error',
      from: { path: '^zinfra/ros2/' },
      to: { path: POLICY_ADAPTER },
    },
    {
      name: 'nothing-below-imports-ros2',
      comment: 'Only cli/ (and zinfra/ros2/ itself) imports zinfra/ros2/: the runtime, the critic, policies and worlds do not know a robot is on ROS 2.',
      severity: 'error',
      from: { pathNot: ['^cli/', '^zinfra/ros2/'] },
      to: { path: '^zinfra/ros2/' },
    },
    {
      name: 'evolution-not-upward',
      comment: 'evolution/ does not import skills/, experiments/, bench/ or models/.',
      severity: 'error',
      from: { path: '^evolution/' },
      to: { path: '^(skills|experiments|bench|models)/' },
    },
    {
      name: 'evolution-not-to-world-adapter',
      comment: 'evolution/ does not import a world: of sim/ it may import only the contracts (sim/world.ts, sim/env.ts, sim/errors.ts, sim/worlds.ts, sim/perturbation/).',
      severity: 'error',
      from: { path: '^evolution/' },
      to: { path: '^sim/', pathNot: WORLD_CONTRACTS },
    },
    {
      name: 'queue-not-upward',
      comment: 'zinfra/queue/ (the Redis job queue: coordinator side and worker) sits just above the runtime: it does not import evolution/, skills/, experiments/, bench/ or models/.',
      severity: 'error',
      from: { path: '^zinfra/queue/' },
      to: { path: '^(evolution|skills|experiments|bench|models)/' },
    },
    {
      name: 'queue-not-to-adapters',
      comment: 'zinfra/queue/ reaches worlds and policies as the runtime does: the sim/ contracts and zinfra/policy/open-policy.ts, never a world or a policy adapter folder.',
      severity: 'error',
      from: { path: '^zinfra/queue/' },
      to: { path: ['^sim/', POLICY_ADAPTER], pathNot: WORLD_CONTRACTS },
    },
    {
      name: 'only-the-top-imports-queue',
      comment: 'Only cli/, experiments/ and bench/ (and zinfra/queue/ itself) import zinfra/queue/: the layers below take an EpisodeExecutor (zinfra/runtime/evaluation.ts) and do not know a queue exists.',
      severity: 'error',
      from: { pathNot: ['^(cli|experiments|bench)/', '^zinfra/queue/'] },
      to: { path: '^zinfra/queue/' },
    },
    {
      name: 'skills-not-upward',
      comment: 'skills/ does not import experiments/ or bench/.',
      severity: 'error',
      from: { path: '^skills/' },
      to: { path: '^(experiments|bench)/' },
    },
    {
      name: 'no-unresolvable',
      comment: 'Every import resolves to a file or a package; an import the check cannot resolve is one it cannot judge, so it fails too.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    // The checked set: the layers and the files beside them, never the tests, build output or run artifacts.
    exclude: { path: ['^(tests|dist|runs)/', '^\\.dependency-cruiser\\.cjs$'] },
    doNotFollow: { path: NPM },
    // Keep type-only imports (`import type`, type re-exports) in the graph: they are dependencies too.
    tsPreCompilationDeps: true,
    // NodeNext: `./x.js` specifiers resolve to the `./x.ts` sources.
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
