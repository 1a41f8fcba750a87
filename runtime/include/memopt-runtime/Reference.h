//===- Reference.h - Calling the CPU reference shared object ----*- C++ -*-===//
//
// Part of the memopt project.
//
//===----------------------------------------------------------------------===//
//
// This file declares ReferenceLibrary, which dlopens the CPU reference built
// by memopt-compile --pipeline=reference and calls its entry point
// `void symbol(void *buf0, void *buf1, ...)` with one pointer per input and
// output buffer, in the manifest's entry_args order (default: inputs that
// are not host-only, then outputs, in id order).
//
//===----------------------------------------------------------------------===//

#ifndef MEMOPT_RUNTIME_REFERENCE_H
#define MEMOPT_RUNTIME_REFERENCE_H

#include "memopt-runtime/Manifest.h"
#include "memopt-runtime/Status.h"

#include <string>
#include <vector>

namespace memopt::runtime {

/// Largest number of pointer arguments a reference entry point may take.
constexpr unsigned kMaxReferenceArgs = 32;

class ReferenceLibrary {
public:
  ReferenceLibrary() = default;
  ReferenceLibrary(const ReferenceLibrary &) = delete;
  ReferenceLibrary &operator=(const ReferenceLibrary &) = delete;
  ~ReferenceLibrary();

  /// dlopens `path` and looks up `symbol`. Errors (kind Reference) name the
  /// file and symbol and carry the dlerror() text.
  Status open(const std::string &path, const std::string &symbol);

  /// Calls the entry point with `args` (at most kMaxReferenceArgs).
  /// Precondition: open() succeeded.
  Status call(const std::vector<void *> &args) const;

  /// Sets the library's public i64 `memopt_rounding_seed` (the perturbed
  /// reference's; memopt-perturb-rounding) to `seed`. Fails (kind
  /// Reference) if the library has none. Precondition: open() succeeded.
  Status setRoundingSeed(uint64_t seed) const;

private:
  void *handle = nullptr;
  void (*entry)() = nullptr;
  std::string name;
};

/// The pointer arguments for the host entry point of `m`: one pointer into
/// bufs[id] (host buffers indexed by id, inputs and outputs sized to their
/// `bytes`) per id of m.hostEntryArgs(), in that order. Fails (kind
/// Reference) if there are more than kMaxReferenceArgs, or (kind Manifest)
/// if a host buffer is missing or has the wrong size.
Expected<std::vector<void *>>
entryPointArgs(const Manifest &m, std::vector<std::vector<unsigned char>> &bufs);

} // namespace memopt::runtime

#endif // MEMOPT_RUNTIME_REFERENCE_H
