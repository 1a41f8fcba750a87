//===- Pipeline.h - memopt pass pipelines -------------------*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The only place where memopt's pass order lives. Embedding compilers call
// buildMemoptPipeline with a plain config struct; memopt-opt registers the
// same builders as named textual pipelines.
//
//===----------------------------------------------------------------------===//

#ifndef MEMOPT_PIPELINE_PIPELINE_H
#define MEMOPT_PIPELINE_PIPELINE_H

#include "memopt/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"

#include <string>

namespace mlir::memopt {

/// Plain configuration of the pipelines (no command-line globals).
struct MemoptPipelineConfig {
  /// NVVM chip, e.g. "sm_90".
  std::string chip = "sm_90";
  /// NVVM target features; sm_90 needs PTX 8.0.
  std::string features = "+ptx80";
  /// LLVM optimization level of the NVPTX backend.
  unsigned optLevel = 3;
  /// memopt-form-kernels' options (defaults from Passes.td): the strategy
  /// (the baseline pipeline forces naive kernels) and the kernels' shapes.
  MemoptFormKernelsPassOptions formKernels;
  /// Split record arrays read at a few fields into per-field arrays (the
  /// layout stage); the baseline pipeline forces false.
  bool aosToSoa = true;
  /// With aosToSoa: keep the function signature and extract fields inside.
  bool keepSignature = false;
  /// The input stage computes the function's body in f64 (memopt-widen-
  /// floats): for the f64 CPU reference only (kernels formed after it would
  /// compute in f64 too).
  bool widenFloats = false;
  /// The input stage evaluates float reductions in a pairwise order
  /// (memopt-pairwise-reductions), in the program's precision: for the
  /// pairwise CPU reference only.
  bool pairwiseReductions = false;
  /// The input stage perturbs every rounding by a seeded random amount
  /// (memopt-perturb-rounding), after the pairwise order: for the perturbed
  /// CPU reference only.
  bool perturbRounding = false;
  /// Software pipelining of tile loops (memopt-pipeline-loads): tiles in
  /// flight, 0 = from the shared-memory budget.
  unsigned pipelineStages = 0;
  /// Bank-conflict repair of the kernels' shared buffers (memopt-bank-fix);
  /// the baseline pipeline has no shared buffers.
  BankFixMode bankFix = BankFixMode::Auto;
  /// Math whose result is only observed in 16 bits uses the GPU's
  /// approximate instructions (memopt-approximate-math; the optimizing
  /// pipeline only).
  bool approximateMath = true;
  /// Static slices, inserts and concatenations become generics and
  /// indexing maps (memopt-fold-slices); the CPU references keep them
  /// (bufferized upstream) so that they check the folding too.
  bool foldSlices = true;
  /// Reductions of a few long rows become two reductions over row
  /// segments (memopt-split-row-reductions; the optimizing pipeline only).
  bool splitRowReductions = true;
  /// Normalizations over a non-innermost loop iterate with it innermost,
  /// one interleaved row group (memopt-interchange-normalizations; the
  /// optimizing pipeline only). Off: column reductions for the statistics
  /// and a pass for the outputs.
  bool interchangeNormalizations = true;
};

/// Stage 0: contract check, decomposition of aggregates, generalization.
LogicalResult buildInputStage(OpPassManager &pm,
                              const MemoptPipelineConfig &config);
/// Stage 2: AoS-to-SoA layout changes (when `config.aosToSoa`).
LogicalResult buildLayoutStage(OpPassManager &pm,
                               const MemoptPipelineConfig &config);
/// Input stage and layout stage (when enabled and the strategy is Fused):
/// everything on tensors.
LogicalResult buildPreBufferizationStages(OpPassManager &pm,
                                          const MemoptPipelineConfig &config);
/// Input stage, layout stage (when enabled and the strategy is Fused) and
/// bufferization: everything before kernel formation.
LogicalResult buildFrontStages(OpPassManager &pm,
                               const MemoptPipelineConfig &config);
/// Tensors to memrefs: one-shot bufferization with identity layouts at the
/// function boundary, results turned into out-parameters.
LogicalResult buildBufferizationStage(OpPassManager &pm,
                                      const MemoptPipelineConfig &config);
/// Stages 1 and 3: the target description, kernel groups, their
/// strategies and the gpu.launch kernels built from them; bank-conflict
/// repair and software pipelining.
LogicalResult buildKernelStage(OpPassManager &pm,
                               const MemoptPipelineConfig &config);
/// The front stages, then the plan: memopt.kernel_group ops carrying their
/// strategy attributes (what buildKernelStage would build).
LogicalResult buildPlanStage(OpPassManager &pm,
                             const MemoptPipelineConfig &config);
/// Stage 5: outlining, NVVM, NVPTX; leaves gpu.binary ops holding PTX.
LogicalResult buildLoweringStage(OpPassManager &pm,
                                 const MemoptPipelineConfig &config);

/// The full optimizing pipeline: tensor-level function to PTX.
LogicalResult buildMemoptPipeline(OpPassManager &pm,
                                  const MemoptPipelineConfig &config);
/// The naive pipeline (one kernel per op, scalar accesses, original layout).
LogicalResult buildMemoptBaselinePipeline(OpPassManager &pm,
                                          const MemoptPipelineConfig &config);
/// Lowers the original tensor function for the host CPU (LLVM dialect, bare
/// pointer C entry point), with no memopt transformation: the reference.
LogicalResult buildCpuReferencePipeline(OpPassManager &pm);
/// Lowers host code (including kernels turned into loops by
/// memopt-launch-to-loops) to the LLVM dialect for the CPU.
LogicalResult buildHostLoweringStage(OpPassManager &pm);

/// After buildFrontStages: forms kernels with `config.formKernels.strategy`, runs them
/// as host loops and lowers for the CPU.
LogicalResult buildHostEmulationBackend(OpPassManager &pm,
                                        const MemoptPipelineConfig &config);
/// Forms kernels with `config.formKernels.strategy`, runs them as host loops
/// (memopt-launch-to-loops) and lowers everything for the CPU: CPU
/// differential testing of kernel formation.
LogicalResult buildHostEmulationPipeline(OpPassManager &pm,
                                         const MemoptPipelineConfig &config);

/// Registers memopt-pipeline, memopt-baseline-pipeline, the stage pipelines
/// and memopt-cpu-reference-pipeline with the textual pass pipeline parser.
void registerMemoptPipelines();

} // namespace mlir::memopt

#endif // MEMOPT_PIPELINE_PIPELINE_H
