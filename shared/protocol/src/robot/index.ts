// Filled by the package that owns this folder; see the package README.
export {};
