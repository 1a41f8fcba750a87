//===- Artifacts.h - PTX, manifest and CPU reference output -*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The embedding API's last step: compile a tensor-level function into the
// files the runtime consumes (docs/manifest.md).
//
//===----------------------------------------------------------------------===//

#ifndef MEMOPT_TARGET_ARTIFACTS_H
#define MEMOPT_TARGET_ARTIFACTS_H

#include "memopt/Pipeline/Pipeline.h"
#include "mlir/IR/BuiltinOps.h"

#include <string>
#include <utility>
#include <vector>

namespace mlir::memopt {

/// What to produce from one input function.
enum class ArtifactKind {
  /// memopt-baseline-pipeline: PTX + manifest.
  Baseline,
  /// memopt-pipeline: PTX + manifest.
  Optimized,
  /// The original function lowered for the host: shared object + manifest.
  Reference,
  /// The original function computed in f64 (arguments widened on entry,
  /// results rounded once) for the host: shared object + manifest whose
  /// pipeline is "reference", with "reference_precision": "f64".
  ReferenceF64,
  /// The original function in its own precision with its float reductions
  /// in a pairwise order (memopt-pairwise-reductions): shared object +
  /// manifest whose pipeline is "reference", with "reference_order":
  /// "pairwise". --pipeline=reference builds it (and the f64 one) too and
  /// names both in its manifest.
  ReferencePairwise,
  /// The pairwise evaluation with every rounding perturbed by a seeded
  /// random amount (memopt-perturb-rounding; the
  /// seed is the library's public `memopt_rounding_seed`): shared object +
  /// manifest whose pipeline is "reference", with "reference_rounding":
  /// "perturbed". --pipeline=reference builds it too.
  ReferencePerturbed,
  /// The baseline kernels run as host loops: shared object + manifest (CPU
  /// differential testing of kernel formation).
  BaselineOnHost,
  /// The optimized kernels run as host loops where they need no
  /// synchronization: shared object + manifest.
  OptimizedOnHost,
};

/// In-memory result of a compilation.
struct Artifact {
  /// The manifest (JSON text, format version 1).
  std::string manifest;
  /// PTX text (GPU kinds).
  std::string ptx;
  /// Relocatable object for the host (host kinds).
  std::string hostObject;
  /// The reference's variants (file suffix, object): the f64 and the
  /// pairwise evaluations, shipped beside the literal one.
  std::vector<std::pair<std::string, std::string>> variantHostObjects;
};

/// Compiles the single public function with a body in `module` (or the one
/// named `functionName` when non-empty). `stem` is the file stem that the
/// manifest refers to (e.g. "w1.optimized"). The module is not modified.
/// Errors are reported through the module's diagnostic engine.
FailureOr<Artifact> compileArtifact(ModuleOp module, ArtifactKind kind,
                                    const MemoptPipelineConfig &config,
                                    StringRef stem,
                                    StringRef functionName = "");

/// Writes `<stem>.json` and `<stem>.ptx`, or `<stem>.json` and `<stem>.so`
/// (linking the host object with the system C compiler).
LogicalResult writeArtifact(const Artifact &artifact, StringRef stemPath,
                            Location loc);

} // namespace mlir::memopt

#endif // MEMOPT_TARGET_ARTIFACTS_H
