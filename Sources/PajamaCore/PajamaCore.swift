// The core in layers (docs/architecture.md): PajamaModel, PajamaStorage, PajamaLoading and PajamaReading.
// This umbrella only re-exports them, so a module that still says `import PajamaCore` sees what it saw
// before the split; a module imports the layers it uses instead, and the umbrella goes when none is left.
@_exported import PajamaLoading
@_exported import PajamaModel
@_exported import PajamaReading
@_exported import PajamaStorage
