//===- memopt-compile.cpp - tensor function to runtime files -*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Compiles a tensor-level .mlir function into the files memopt-run loads:
// PTX + launch manifest, or the CPU reference shared object + manifest.
// A thin wrapper over memopt::compileArtifact (the embedding API).
//
//===----------------------------------------------------------------------===//

#include "memopt/InitAll.h"
#include "memopt/Target/Artifacts.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::memopt;

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // --help shows these only, not LLVM's global options.
  llvm::cl::OptionCategory category("memopt-compile options");
  llvm::cl::opt<std::string> input(llvm::cl::cat(category), llvm::cl::Positional,
                                   llvm::cl::desc("<input.mlir>"),
                                   llvm::cl::Required);
  llvm::cl::opt<std::string> output(llvm::cl::cat(category), "o", llvm::cl::desc("Output file stem"),
                                    llvm::cl::Required);
  llvm::cl::opt<ArtifactKind> kind(llvm::cl::cat(category), 
      "pipeline", llvm::cl::desc("What to produce"),
      llvm::cl::init(ArtifactKind::Optimized),
      llvm::cl::values(
          clEnumValN(ArtifactKind::Baseline, "baseline",
                     "Naive kernels: PTX + manifest"),
          clEnumValN(ArtifactKind::Optimized, "optimized",
                     "memopt-pipeline: PTX + manifest"),
          clEnumValN(ArtifactKind::Reference, "reference",
                     "Original function for the CPU: .so + manifest, with "
                     "the f64, pairwise and perturbed evaluations (.f64.so, "
                     ".pairwise.so, .perturbed.so) the verdicts judge "
                     "against"),
          clEnumValN(ArtifactKind::ReferenceF64, "reference-f64",
                     "Original function computed in f64 for the CPU, "
                     "results rounded once: .so + manifest"),
          clEnumValN(ArtifactKind::ReferencePairwise, "reference-pairwise",
                     "Original function in its own precision, float "
                     "reductions in a pairwise order: .so + manifest"),
          clEnumValN(ArtifactKind::ReferencePerturbed, "reference-perturbed",
                     "The pairwise evaluation with every rounding "
                     "perturbed by a seeded random amount: .so + "
                     "manifest"),
          clEnumValN(ArtifactKind::BaselineOnHost, "baseline-host",
                     "Naive kernels run as host loops: .so + manifest"),
          clEnumValN(ArtifactKind::OptimizedOnHost, "optimized-host",
                     "Optimized kernels run as host loops: .so + manifest")));
  llvm::cl::opt<std::string> function(llvm::cl::cat(category), 
      "function", llvm::cl::desc("Function to compile (default: the only "
                                 "public one)"),
      llvm::cl::init(""));
  llvm::cl::opt<std::string> chip(llvm::cl::cat(category), "chip", llvm::cl::desc("NVVM chip"),
                                  llvm::cl::init("sm_90"));
  // The form-kernels options, defaults from Passes.td.
#define MEMOPT_KERNEL_SHAPE_OPTION(TYPE, FIELD, FLAG, DESC)                    \
  llvm::cl::opt<TYPE> FIELD##Flag(llvm::cl::cat(category),                                              \
      FLAG, llvm::cl::desc(DESC),                                              \
      llvm::cl::init(MemoptFormKernelsPassOptions().FIELD));
#include "memopt/Pipeline/KernelShapeOptions.def"
  llvm::cl::opt<unsigned> stages(llvm::cl::cat(category), 
      "stages",
      llvm::cl::desc("Software pipelining: tiles in flight (1 = no "
                     "prefetch, 0 = from the shared-memory budget)"),
      llvm::cl::init(0));
  llvm::cl::opt<BankFixMode> bankFix(llvm::cl::cat(category), 
      "bank-fix", llvm::cl::desc("Bank-conflict repair of shared buffers"),
      llvm::cl::init(BankFixMode::Auto),
      llvm::cl::values(
          clEnumValN(BankFixMode::None, "none", "No repair"),
          clEnumValN(BankFixMode::Pad, "pad", "Pad rows"),
          clEnumValN(BankFixMode::Swizzle, "swizzle", "XOR swizzle"),
          clEnumValN(BankFixMode::Auto, "auto",
                     "Padding if proven, else swizzle")));
  llvm::cl::opt<bool> approximateMath(llvm::cl::cat(category), 
      "approximate-math",
      llvm::cl::desc("Math only observed after rounding to 16 bits uses "
                     "approximate GPU instructions (optimized pipeline)"),
      llvm::cl::init(true));
  llvm::cl::opt<bool> splitRowReductions(llvm::cl::cat(category),
      "split-row-reductions",
      llvm::cl::desc("Reductions of fewer rows than multiprocessors become "
                     "two reductions over row segments (optimized pipeline)"),
      llvm::cl::init(true));
  llvm::cl::opt<bool> interchangeNormalizations(llvm::cl::cat(category),
      "interchange-normalizations",
      llvm::cl::desc("Normalizations over a non-innermost dim iterate with "
                     "it innermost, one interleaved row kernel (optimized "
                     "pipeline); off: column reductions, then the outputs"),
      llvm::cl::init(true));
  llvm::cl::HideUnrelatedOptions(category);
  llvm::cl::ParseCommandLineOptions(argc, argv, "memopt compiler driver\n");

  DialectRegistry registry;
  registerMemoptDialects(registry);
  MLIRContext context(registry);
  context.printOpOnDiagnostic(false);
  context.loadAllAvailableDialects();
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  std::string err;
  auto file = openInputFile(input, &err);
  if (!file) {
    llvm::errs() << "memopt-compile: " << err << "\n";
    return 1;
  }
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1;
  MemoptPipelineConfig config;
  config.chip = chip;
  config.bankFix = bankFix;
  config.pipelineStages = stages;
  config.approximateMath = approximateMath;
  config.splitRowReductions = splitRowReductions;
  config.interchangeNormalizations = interchangeNormalizations;
#define MEMOPT_KERNEL_SHAPE_OPTION(TYPE, FIELD, FLAG, DESC)                    \
  config.formKernels.FIELD = FIELD##Flag;
#include "memopt/Pipeline/KernelShapeOptions.def"
  StringRef stem = llvm::sys::path::filename(output);
  FailureOr<Artifact> artifact =
      compileArtifact(*module, kind, config, stem, function);
  if (failed(artifact))
    return 1;
  if (failed(writeArtifact(*artifact, output, module->getLoc())))
    return 1;
  return 0;
}
