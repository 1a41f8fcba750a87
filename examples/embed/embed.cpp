//===- embed.cpp - using memopt from another compiler ------------*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A minimal out-of-tree consumer of the installed memopt package
// (find_package(MemOpt)). It
//   1. builds, with OpBuilder, a tensor-level function
//        func.func @axpby(%x, %y: tensor<1024xf32>) -> tensor<1024xf32>
//      computing a * x + b * y with one linalg.generic,
//   2. runs memopt's optimizing pipeline on a copy of it through a plain
//      PassManager (buildMemoptPipeline), and
//   3. compiles it with the embedding API (compileArtifact) and writes
//      <out>.ptx and <out>.json (writeArtifact).
//
// Usage: memopt-embed <output stem>   (e.g. /tmp/axpby -> /tmp/axpby.ptx)
//
//===----------------------------------------------------------------------===//

#include "memopt/InitAll.h"
#include "memopt/Pipeline/Pipeline.h"
#include "memopt/Target/Artifacts.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::memopt;

/// Builds
///   func.func @axpby(%x: tensor<1024xf32>, %y: tensor<1024xf32>)
///       -> tensor<1024xf32> {
///     %init = tensor.empty() : tensor<1024xf32>
///     %r = linalg.generic {parallel} ins(%x, %y) outs(%init) {
///       ^bb0(%xi: f32, %yi: f32, %o: f32):
///         %ax = arith.mulf %a, %xi; %by = arith.mulf %b, %yi
///         linalg.yield (arith.addf %ax, %by)
///     }
///     return %r
///   }
static OwningOpRef<ModuleOp> buildAxpby(MLIRContext &ctx, double a, double b) {
  OpBuilder builder(&ctx);
  Location loc = FileLineColLoc::get(&ctx, "axpby", 1, 1);
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  builder.setInsertionPointToEnd(module->getBody());

  Type f32 = builder.getF32Type();
  auto tensor = RankedTensorType::get({1024}, f32);
  FunctionType type = builder.getFunctionType({tensor, tensor}, {tensor});
  auto fn = func::FuncOp::create(builder, loc, "axpby", type);
  Block *entry = fn.addEntryBlock();
  builder.setInsertionPointToStart(entry);
  Value x = entry->getArgument(0), y = entry->getArgument(1);

  Value init = tensor::EmptyOp::create(builder, loc, tensor.getShape(), f32);
  AffineMap id = builder.getDimIdentityMap();
  SmallVector<AffineMap> maps(3, id);
  SmallVector<utils::IteratorType> iterators = {utils::IteratorType::parallel};
  auto generic = linalg::GenericOp::create(
      builder, loc, TypeRange{tensor}, ValueRange{x, y}, ValueRange{init},
      maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value ca = arith::ConstantOp::create(nb, nloc, nb.getF32FloatAttr(a));
        Value cb = arith::ConstantOp::create(nb, nloc, nb.getF32FloatAttr(b));
        Value ax = arith::MulFOp::create(nb, nloc, ca, args[0]);
        Value by = arith::MulFOp::create(nb, nloc, cb, args[1]);
        Value sum = arith::AddFOp::create(nb, nloc, ax, by);
        linalg::YieldOp::create(nb, nloc, sum);
      });
  func::ReturnOp::create(builder, loc, generic.getResult(0));
  return module;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    llvm::errs() << "usage: " << argv[0] << " <output stem>\n";
    return 2;
  }
  std::string stemPath = argv[1];

  // Every dialect, interface and translation memopt's pipelines need.
  DialectRegistry registry;
  registerMemoptDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();

  OwningOpRef<ModuleOp> module = buildAxpby(context, 2.0, 0.5);
  if (failed(verify(*module))) {
    llvm::errs() << "memopt-embed: the built module does not verify\n";
    return 1;
  }
  llvm::outs() << "input:\n" << *module << "\n";

  MemoptPipelineConfig config; // sm_90, +ptx80, fused kernels.

  // (a) The pass pipeline on a PassManager of the embedding compiler, run on a
  //     clone: the module ends with gpu.binary ops holding the PTX.
  {
    OwningOpRef<ModuleOp> clone = module->clone();
    PassManager pm(&context);
    if (failed(buildMemoptPipeline(pm, config)) || failed(pm.run(*clone))) {
      llvm::errs() << "memopt-embed: memopt-pipeline failed\n";
      return 1;
    }
    unsigned binaries = 0;
    clone->walk([&](gpu::BinaryOp) { ++binaries; });
    llvm::outs() << "buildMemoptPipeline: " << binaries
                 << " gpu.binary op(s)\n";
  }

  // (b) The one-call embedding API: PTX + launch manifest.
  StringRef stem = llvm::sys::path::filename(stemPath);
  FailureOr<Artifact> artifact = compileArtifact(
      *module, ArtifactKind::Optimized, config, stem, "axpby");
  if (failed(artifact)) {
    llvm::errs() << "memopt-embed: compileArtifact failed\n";
    return 1;
  }
  if (failed(writeArtifact(*artifact, stemPath, module->getLoc())))
    return 1;

  // Count the kernel launches of the manifest's schedule.
  llvm::Expected<llvm::json::Value> manifest =
      llvm::json::parse(artifact->manifest);
  if (!manifest) {
    llvm::errs() << "memopt-embed: bad manifest: "
                 << llvm::toString(manifest.takeError()) << "\n";
    return 1;
  }
  unsigned kernels = 0;
  if (const llvm::json::Object *root = manifest->getAsObject())
    if (const llvm::json::Array *schedule = root->getArray("schedule"))
      for (const llvm::json::Value &step : *schedule)
        if (const llvm::json::Object *o = step.getAsObject())
          if (o->get("kernel"))
            ++kernels;
  llvm::outs() << "wrote " << stemPath << ".ptx (" << artifact->ptx.size()
               << " bytes) and " << stemPath << ".json\n";
  llvm::outs() << "kernels: " << kernels << "\n";
  return kernels > 0 ? 0 : 1;
}
