//===- Pipeline.cpp - memopt pass pipelines -----------------*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file implements the pipelines declared in Pipeline.h. It is the only
// place in memopt where pass order is decided.
//
//===----------------------------------------------------------------------===//

#include "memopt/Pipeline/Pipeline.h"
#include "memopt/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::memopt;

/// Canonicalize then CSE, the one cleanup used between stages.
static void addCleanup(OpPassManager &pm) {
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

LogicalResult mlir::memopt::buildInputStage(OpPassManager &pm,
                                            const MemoptPipelineConfig &cfg) {
  // Frontends' spellings of in-contract values (alloc_tensor, splat
  // constants, scalars in 0-d tensors) first.
  pm.addNestedPass<func::FuncOp>(createMemoptNormalizeFrontendFormsPass());
  // Check next: later passes assume the contract and would crash or
  // miscompile outside it.
  pm.addPass(createMemoptCheckInputContractPass());
  // Kernel formation only understands linalg.generic.
  pm.addNestedPass<func::FuncOp>(createMemoptDecomposeLinalgPass());
  // i2/i4 inputs as their packed bytes, unpacked in the bodies that read
  // them (every pipeline: the reference reads the same storage).
  pm.addNestedPass<func::FuncOp>(createMemoptPackSubByteIntegersPass());
  // Slices and concatenations (narrow, split, cat, rotate_half) as maps
  // on generics, read in place, so that they fuse with their readers.
  if (cfg.foldSlices)
    pm.addNestedPass<func::FuncOp>(createMemoptFoldSlicesPass());
  // Transposed copies (k.transpose(-1, -2) before a matmul) read in place
  // where their readers then walk the source contiguously: before the
  // reduced dims are collapsed, which needs them contiguous in memory. The
  // baseline and the references keep the program's copies.
  if (cfg.formKernels.strategy == KernelStrategy::Fused)
    pm.addNestedPass<func::FuncOp>(createMemoptFoldPermutationCopiesPass());
  // Unit dims dropped (torch-mlir's keepdim statistics, tensor<Nx1> written
  // through (d0, d1) -> (d0, 0); batch dims of 1): the grouping sees the
  // row space the program has.
  pm.addNestedPass<func::FuncOp>(createLinalgFoldUnitExtentDimsPass());
  // Reductions walking their largest input across its contiguous dim
  // (p . V reducing over tokens, V contiguous along the head dim) iterate
  // in its layout order: before the reduced dims are collapsed (which needs
  // them adjacent) and the producers are recomputed (column reductions).
  if (cfg.formKernels.strategy == KernelStrategy::Fused)
    pm.addNestedPass<func::FuncOp>(createMemoptInterchangeReductionsPass());
  // Several adjacent reduced dims contiguous in memory: one reduced dim.
  pm.addNestedPass<func::FuncOp>(createMemoptCollapseReductionDimsPass());
  // Arg-max/arg-min (a value and the index that set it): reductions with
  // one combiner each. It reassociates, so the optimizing pipeline only.
  if (cfg.formKernels.strategy == KernelStrategy::Fused)
    pm.addNestedPass<func::FuncOp>(createMemoptArgReductionsPass());
  // Welford's recurrence as the two-pass statistics it computes, and
  // two-pass statistics over reduced loops no reshape makes adjacent
  // (batch-norm training) from one pass over their input. They
  // reassociate: the optimizing pipeline only.
  if (cfg.formKernels.strategy == KernelStrategy::Fused)
    pm.addNestedPass<func::FuncOp>(createMemoptCenterStatisticsPass());
  // Independent outputs of one reduction: one reduction each.
  pm.addNestedPass<func::FuncOp>(createMemoptSplitReductionsPass());
  // Integer reductions in 32 bits where exact (any/all over i1, a mask
  // counted into i64): kernels exchange partials in 32 bits.
  if (cfg.formKernels.strategy == KernelStrategy::Fused)
    pm.addNestedPass<func::FuncOp>(
        createMemoptNarrowIntegerAccumulatorsPass());
  // Reduced loops no reshape makes adjacent (NCHW batch-norm statistics):
  // a chain of one-loop reductions. It reassociates, so the optimizing
  // pipeline only: the baseline and the references keep the program's
  // order.
  if (cfg.formKernels.strategy == KernelStrategy::Fused) {
    pm.addNestedPass<func::FuncOp>(createMemoptStageReductionsPass());
    // Cheap producers of column-like reductions recomputed inside them
    // (kernel formation fuses producers into row kernels, not these).
    pm.addNestedPass<func::FuncOp>(createMemoptRecomputeProducersPass());
    // Math only observed after rounding to 16 bits: approximate forms.
    if (cfg.approximateMath)
      pm.addNestedPass<func::FuncOp>(createMemoptApproximateMathPass());
  }
  // Inputs read-only, outputs distinct: what bufferization must respect at
  // the boundary (after decomposition, since its copies are generics).
  // The optimizing pipeline also gives each op's destination its own
  // buffer (no copies of shared fills between kernel groups); the naive
  // baseline and the reference keep the frontend's buffer reuse.
  MemoptPrepareBoundaryPassOptions boundaryOpts;
  boundaryOpts.unshareDestinations =
      cfg.formKernels.strategy == KernelStrategy::Fused;
  pm.addNestedPass<func::FuncOp>(
      createMemoptPrepareBoundaryPass(boundaryOpts));
  // The f64 reference: generics only from here, the boundary settled.
  if (cfg.widenFloats)
    pm.addNestedPass<func::FuncOp>(createMemoptWidenFloatsPass());
  // The pairwise reference: the program's precision, another order.
  if (cfg.pairwiseReductions)
    pm.addNestedPass<func::FuncOp>(createMemoptPairwiseReductionsPass());
  // The perturbed reference: the program's precision, its roundings
  // perturbed (Monte Carlo arithmetic).
  if (cfg.perturbRounding)
    pm.addPass(createMemoptPerturbRoundingPass());
  return success();
}

LogicalResult
mlir::memopt::buildBufferizationStage(OpPassManager &pm,
                                      const MemoptPipelineConfig &) {
  bufferization::OneShotBufferizePassOptions bufOpts;
  bufOpts.bufferizeFunctionBoundaries = true;
  // Identity layouts at the boundary: the runtime passes plain pointers.
  bufOpts.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufOpts));
  // Reshapes of reshapes fold first (a result written through the inverse
  // reshape of its out-parameter is then the allocation itself).
  addCleanup(pm);
  // Results become out-parameters, and the static allocation of each result
  // is replaced by its out-parameter so that no final copy is needed.
  bufferization::BufferResultsToOutParamsPassOptions outOpts;
  outOpts.hoistStaticAllocs = true;
  outOpts.modifyPublicFunctions = true;
  pm.addPass(bufferization::createBufferResultsToOutParamsPass(outOpts));
  // Results computed through reshapes of an allocation are written through
  // the inverse reshapes of their out-parameters instead of copied there.
  pm.addNestedPass<func::FuncOp>(createMemoptFoldOutputCopiesPass());
  // Canonicalize after CSE would leave self-copies of parallel_insert_slice;
  // there are none here, but keep the upstream-recommended order.
  addCleanup(pm);
  return success();
}

/// Copies the kernel-formation knobs shared by memopt-form-kernels,
/// memopt-form-groups and memopt-select-kernel-strategy (Passes.td's
/// MemoptKernelShapeOptions).
template <typename Options>
static Options getKnobs(const MemoptFormKernelsPassOptions &from) {
  Options to;
  to.blockSize = from.blockSize;
  to.maxThreadsPerBlock = from.maxThreadsPerBlock;
  to.warpSize = from.warpSize;
  to.vectorBytes = from.vectorBytes;
  to.rowChunksPerThread = from.rowChunksPerThread;
  to.elementwiseLoadBytes = from.elementwiseLoadBytes;
  to.columnRowsPerBlock = from.columnRowsPerBlock;
  to.columnUnroll = from.columnUnroll;
  to.columnSliceBytes = from.columnSliceBytes;
  to.rowRegisterElements = from.rowRegisterElements;
  to.maxClusterSize = from.maxClusterSize;
  to.clusterBlockThreads = from.clusterBlockThreads;
  to.rowPrefetch = from.rowPrefetch;
  to.rowSharedElements = from.rowSharedElements;
  to.interleavedRowsPerThread = from.interleavedRowsPerThread;
  to.interleavedBlockRows = from.interleavedBlockRows;
  to.columnLastBlock = from.columnLastBlock;
  to.lastBlockTails = from.lastBlockTails;
  to.multiprocessors = from.multiprocessors;
  return to;
}

/// Target, groups and strategies: the plan of the kernels, in the IR.
/// Returns the functions' pass manager, for the passes that follow.
static OpPassManager &addPlanningPasses(OpPassManager &pm,
                                        const MemoptPipelineConfig &cfg) {
  // Every later pass reads its chip facts from the module's #memopt.target.
  MemoptSetTargetPassOptions targetOpts;
  targetOpts.chip = cfg.chip;
  pm.addPass(createMemoptSetTargetPass(targetOpts));
  OpPassManager &funcPm = pm.nest<func::FuncOp>();
  // Normalizations over a non-innermost loop: that loop innermost, so that
  // they form one (interleaved) row group.
  if (cfg.formKernels.strategy == KernelStrategy::Fused &&
      cfg.interchangeNormalizations)
    funcPm.addPass(createMemoptInterchangeNormalizationsPass(
        getKnobs<MemoptInterchangeNormalizationsPassOptions>(
            cfg.formKernels)));
  // Reductions of fewer rows than multiprocessors: two reductions over
  // row segments, each with blocks for every multiprocessor.
  if (cfg.formKernels.strategy == KernelStrategy::Fused &&
      cfg.splitRowReductions)
    funcPm.addPass(createMemoptSplitRowReductionsPass(
        getKnobs<MemoptSplitRowReductionsPassOptions>(cfg.formKernels)));
  auto groupOpts = getKnobs<MemoptFormGroupsPassOptions>(cfg.formKernels);
  groupOpts.strategy = cfg.formKernels.strategy;
  funcPm.addPass(createMemoptFormGroupsPass(groupOpts));
  // The baseline's groups already carry #memopt.naive.
  funcPm.addPass(createMemoptSelectKernelStrategyPass(
      getKnobs<MemoptSelectKernelStrategyPassOptions>(cfg.formKernels)));
  return funcPm;
}

LogicalResult mlir::memopt::buildPlanStage(OpPassManager &pm,
                                           const MemoptPipelineConfig &cfg) {
  if (failed(buildFrontStages(pm, cfg)))
    return failure();
  addPlanningPasses(pm, cfg);
  return success();
}

LogicalResult mlir::memopt::buildKernelStage(OpPassManager &pm,
                                             const MemoptPipelineConfig &cfg) {
  // Builds what the plan says and decides nothing.
  addPlanningPasses(pm, cfg).addPass(createMemoptEmitKernelsPass());
  addCleanup(pm);
  MemoptBankFixPassOptions bankOpts;
  bankOpts.mode = cfg.bankFix;
  pm.addPass(createMemoptBankFixPass(bankOpts));
  // Naive kernels have no tile loops worth prefetching.
  if (cfg.formKernels.strategy == KernelStrategy::Fused) {
    MemoptPipelineLoadsPassOptions pipeOpts;
    pipeOpts.stages = cfg.pipelineStages;
    pm.addPass(createMemoptPipelineLoadsPass(pipeOpts));
    addCleanup(pm);
  }
  return success();
}

LogicalResult
mlir::memopt::buildLoweringStage(OpPassManager &pm,
                                 const MemoptPipelineConfig &cfg) {
  // Index arithmetic of kernels must be in the launch body before outlining
  // so that constants are sunk rather than passed as arguments.
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());
  // Hand-written kernels' consecutive scalar accesses (memopt's own kernels
  // are vectorized when formed).
  pm.addPass(createMemoptWidenAccessesPass());
  pm.addPass(createGpuKernelOutliningPass());
  // One PTX module per program: the runtime loads exactly one.
  pm.addPass(createMemoptMergeKernelModulesPass());
  // Needs the launch_func call sites (after outlining) and the gpu.func
  // argument attributes must be set before NVVM conversion copies them.
  pm.addPass(createMemoptMarkReadOnlyArgsPass());
  OpPassManager &gpuPm = pm.nest<gpu::GPUModuleOp>();
  // Cluster barriers and distributed shared memory reads (row kernels split
  // over a cluster) become NVVM while their buffers are still memrefs.
  gpuPm.addPass(createMemoptLowerClusterOpsPass());
  // NVVM conversion would turn math ops into libdevice calls, which resolve
  // only when a CUDA toolkit is found at compile time: lower them first so
  // that the PTX is the same everywhere (while loops are still loops: a
  // division by a divisor from outside its loop becomes a multiplication).
  gpuPm.addPass(createMemoptLowerGpuMathPass());
  gpuPm.addPass(createLowerAffinePass());
  gpuPm.addPass(createSCFToControlFlowPass());
  // cp.async copies, commit and wait groups of pipelined loops.
  gpuPm.addPass(createConvertNVGPUToNVVMPass());
  ConvertGpuOpsToNVVMOpsOptions nvvmOpts;
  // Bare pointers: a kernel's memref argument is one device pointer, which
  // is what the manifest's {"buffer": id} argument binds.
  nvvmOpts.useBarePtrCallConv = true;
  gpuPm.addPass(createConvertGpuOpsToNVVMOps(nvvmOpts));
  // Dynamic shared memory must stay an extern array (see the pass).
  gpuPm.addPass(createMemoptFixSharedGlobalsPass());
  // i1 is stored a byte per element; widened i1 accesses move bytes.
  gpuPm.addPass(createMemoptBoolVectorsAsBytesPass());
  gpuPm.addPass(createCanonicalizerPass());
  gpuPm.addPass(createCSEPass());
  gpuPm.addPass(createReconcileUnrealizedCastsPass());
  GpuNVVMAttachTargetOptions targetOpts;
  targetOpts.chip = cfg.chip;
  targetOpts.features = cfg.features;
  targetOpts.optLevel = cfg.optLevel;
  pm.addPass(createGpuNVVMAttachTarget(targetOpts));
  GpuModuleToBinaryPassOptions binOpts;
  binOpts.compilationTarget = "isa";
  pm.addPass(createGpuModuleToBinaryPass(binOpts));
  return success();
}

LogicalResult mlir::memopt::buildLayoutStage(OpPassManager &pm,
                                             const MemoptPipelineConfig &cfg) {
  if (cfg.aosToSoa) {
    MemoptAosToSoaPassOptions opts;
    opts.keepSignature = cfg.keepSignature;
    pm.addPass(createMemoptAosToSoaPass(opts));
  }
  // Records kept interleaved (every field used) are read as whole records:
  // a vector covers several of them.
  pm.addNestedPass<func::FuncOp>(createMemoptWidenRecordsPass());
  return success();
}

LogicalResult
mlir::memopt::buildPreBufferizationStages(OpPassManager &pm,
                                          const MemoptPipelineConfig &cfg) {
  if (failed(buildInputStage(pm, cfg)))
    return failure();
  // Layout changes work on generics (after the input stage) and change the
  // function signature, which bufferization then fixes to memrefs. The
  // naive baseline keeps the original layout.
  if (cfg.formKernels.strategy == KernelStrategy::Fused &&
      failed(buildLayoutStage(pm, cfg)))
    return failure();
  return success();
}

LogicalResult mlir::memopt::buildFrontStages(OpPassManager &pm,
                                             const MemoptPipelineConfig &cfg) {
  if (failed(buildPreBufferizationStages(pm, cfg)))
    return failure();
  return buildBufferizationStage(pm, cfg);
}

LogicalResult
mlir::memopt::buildMemoptPipeline(OpPassManager &pm,
                                  const MemoptPipelineConfig &cfg) {
  if (failed(buildFrontStages(pm, cfg)) || failed(buildKernelStage(pm, cfg)) ||
      failed(buildLoweringStage(pm, cfg)))
    return failure();
  return success();
}

LogicalResult
mlir::memopt::buildMemoptBaselinePipeline(OpPassManager &pm,
                                          const MemoptPipelineConfig &cfg) {
  MemoptPipelineConfig naive = cfg;
  naive.formKernels.strategy = KernelStrategy::Naive;
  return buildMemoptPipeline(pm, naive);
}

LogicalResult mlir::memopt::buildHostLoweringStage(OpPassManager &pm) {
  // Copies between views as loops: no runtime library call.
  pm.addPass(createMemoptLowerCopiesPass());
  pm.addPass(createConvertLinalgToLoopsPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  // f16/bf16 math computes in f32 (the host has no bf16 libcalls).
  pm.addPass(math::createMathExtendToSupportedTypes());
  // Expand what the LLVM math intrinsics lack, map the rest to libm.
  pm.addPass(math::createMathExpandOpsPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createConvertVectorToLLVMPass());
  // The host's libgcc has no bf16 conversion helpers (__truncsfbf2): bf16
  // arithmetic runs in f32, and bf16 extf/truncf become integer arithmetic.
  arith::ArithEmulateUnsupportedFloatsOptions emulateOpts;
  emulateOpts.sourceTypeStrs = {"bf16"};
  emulateOpts.targetTypeStr = "f32";
  pm.addPass(arith::createArithEmulateUnsupportedFloats(emulateOpts));
  arith::ArithExpandOpsPassOptions expandOpts;
  expandOpts.includeBf16 = true;
  pm.addPass(arith::createArithExpandOpsPass(expandOpts));
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  ConvertFuncToLLVMPassOptions funcOpts;
  // A C entry point with one pointer per buffer, as the manifest promises.
  funcOpts.useBarePtrCallConv = true;
  pm.addPass(createConvertFuncToLLVMPass(funcOpts));
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  // i1 is stored a byte per element; widened i1 accesses move bytes.
  pm.addPass(createMemoptBoolVectorsAsBytesPass());
  return success();
}

LogicalResult mlir::memopt::buildCpuReferencePipeline(OpPassManager &pm) {
  // The reference is the original function: no layout change (the naive
  // strategy skips the layout stage), no kernels.
  MemoptPipelineConfig cfg;
  cfg.formKernels.strategy = KernelStrategy::Naive;
  cfg.foldSlices = false;
  if (failed(buildFrontStages(pm, cfg)))
    return failure();
  return buildHostLoweringStage(pm);
}

LogicalResult
mlir::memopt::buildHostEmulationBackend(OpPassManager &pm,
                                        const MemoptPipelineConfig &cfg) {
  if (failed(buildKernelStage(pm, cfg)))
    return failure();
  // Kernels become sequential loops before host lowering, which knows
  // nothing of gpu.launch.
  pm.addNestedPass<func::FuncOp>(createMemoptLaunchToLoopsPass());
  return buildHostLoweringStage(pm);
}

LogicalResult
mlir::memopt::buildHostEmulationPipeline(OpPassManager &pm,
                                         const MemoptPipelineConfig &cfg) {
  if (failed(buildFrontStages(pm, cfg)))
    return failure();
  return buildHostEmulationBackend(pm, cfg);
}

namespace {
struct PipelineOptions : public PassPipelineOptions<PipelineOptions> {
  Option<std::string> chip{*this, "chip", llvm::cl::desc("NVVM chip"),
                           llvm::cl::init("sm_90")};
  Option<std::string> features{*this, "features",
                               llvm::cl::desc("NVVM target features"),
                               llvm::cl::init("+ptx80")};
  Option<unsigned> optLevel{*this, "opt-level",
                            llvm::cl::desc("NVPTX optimization level"),
                            llvm::cl::init(3)};
  Option<BankFixMode> bankFix{
      *this, "bank-fix",
      llvm::cl::desc("Bank-conflict repair of shared buffers"),
      llvm::cl::init(BankFixMode::Auto),
      llvm::cl::values(
          clEnumValN(BankFixMode::None, "none", "No repair"),
          clEnumValN(BankFixMode::Pad, "pad", "Pad rows"),
          clEnumValN(BankFixMode::Swizzle, "swizzle", "XOR swizzle"),
          clEnumValN(BankFixMode::Auto, "auto", "Padding if proven, else swizzle"))};

  Option<bool> approximateMath{
      *this, "approximate-math",
      llvm::cl::desc("Math only observed after rounding to 16 bits uses "
                     "approximate GPU instructions (optimizing pipeline)"),
      llvm::cl::init(true)};
  Option<unsigned> stages{
      *this, "stages",
      llvm::cl::desc("Software pipelining: tiles in flight (1 = no prefetch, "
                     "0 = from the shared-memory budget)"),
      llvm::cl::init(0)};
#define MEMOPT_KERNEL_SHAPE_OPTION(TYPE, FIELD, FLAG, DESC)                    \
  Option<TYPE> FIELD{*this, FLAG, llvm::cl::desc(DESC),                        \
                     llvm::cl::init(MemoptFormKernelsPassOptions().FIELD)};
#include "memopt/Pipeline/KernelShapeOptions.def"

  MemoptPipelineConfig toConfig() const {
    MemoptPipelineConfig cfg;
    cfg.pipelineStages = stages;
#define MEMOPT_KERNEL_SHAPE_OPTION(TYPE, FIELD, FLAG, DESC)                    \
  cfg.formKernels.FIELD = FIELD;
#include "memopt/Pipeline/KernelShapeOptions.def"
    cfg.chip = chip;
    cfg.features = features;
    cfg.optLevel = optLevel;
    cfg.bankFix = bankFix;
    cfg.approximateMath = approximateMath;
    return cfg;
  }
};
} // namespace

void mlir::memopt::registerMemoptPipelines() {
  PassPipelineRegistration<PipelineOptions>(
      "memopt-pipeline", "The full memopt pipeline: tensors to PTX",
      [](OpPassManager &pm, const PipelineOptions &o) {
        (void)buildMemoptPipeline(pm, o.toConfig());
      });
  PassPipelineRegistration<PipelineOptions>(
      "memopt-baseline-pipeline",
      "Naive lowering: one kernel per op, scalar accesses, original layout",
      [](OpPassManager &pm, const PipelineOptions &o) {
        (void)buildMemoptBaselinePipeline(pm, o.toConfig());
      });
  PassPipelineRegistration<PipelineOptions>(
      "memopt-input-stage", "Contract check and linalg generalization",
      [](OpPassManager &pm, const PipelineOptions &o) {
        (void)buildInputStage(pm, o.toConfig());
      });
  PassPipelineRegistration<PipelineOptions>(
      "memopt-layout-stage", "AoS-to-SoA layout changes",
      [](OpPassManager &pm, const PipelineOptions &o) {
        (void)buildLayoutStage(pm, o.toConfig());
      });
  PassPipelineRegistration<PipelineOptions>(
      "memopt-bufferization-stage", "Bufferization to out-parameters",
      [](OpPassManager &pm, const PipelineOptions &o) {
        (void)buildBufferizationStage(pm, o.toConfig());
      });
  PassPipelineRegistration<PipelineOptions>(
      "memopt-plan-stage",
      "Everything up to the kernel plan: groups with strategy attributes",
      [](OpPassManager &pm, const PipelineOptions &o) {
        (void)buildPlanStage(pm, o.toConfig());
      });
  PassPipelineRegistration<PipelineOptions>(
      "memopt-kernel-stage", "Fused kernel formation",
      [](OpPassManager &pm, const PipelineOptions &o) {
        (void)buildKernelStage(pm, o.toConfig());
      });
  PassPipelineRegistration<PipelineOptions>(
      "memopt-lowering-stage", "Outlining and lowering to PTX",
      [](OpPassManager &pm, const PipelineOptions &o) {
        (void)buildLoweringStage(pm, o.toConfig());
      });
  PassPipelineRegistration<>(
      "memopt-cpu-reference-pipeline",
      "Lower the original function for the host CPU (the reference)",
      [](OpPassManager &pm) { (void)buildCpuReferencePipeline(pm); });
  PassPipelineRegistration<>(
      "memopt-host-lowering-stage",
      "Lower host code (and kernels run as loops) to the LLVM dialect",
      [](OpPassManager &pm) { (void)buildHostLoweringStage(pm); });
}
