//===- KnobOptions.h - kernel formation knobs of pass options -*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Internal to the kernel formation passes: the KernelTargetInfo of a pass
// that declares MemoptKernelShapeOptions (Passes.td), from its options and
// the #memopt.target of the op it runs on. A macro because the options are
// protected members of each pass's generated base class.
//
//===----------------------------------------------------------------------===//

#ifndef MEMOPT_LIB_TRANSFORMS_KERNELFORMATION_KNOBOPTIONS_H
#define MEMOPT_LIB_TRANSFORMS_KERNELFORMATION_KNOBOPTIONS_H

#include "memopt/Transforms/Transforms.h"

#include <algorithm>

/// Declares `INFO`, the KernelTargetInfo of the pass's options on `OP`.
#define MEMOPT_KERNEL_TARGET_INFO(INFO, OP)                                    \
  ::mlir::memopt::KernelTargetInfo INFO;                                       \
  INFO.blockSize = blockSize;                                                  \
  INFO.maxThreadsPerBlock = maxThreadsPerBlock;                                \
  INFO.warpSize = warpSize;                                                    \
  INFO.vectorBytes = vectorBytes;                                              \
  INFO.rowChunksPerThread = std::max(1u, unsigned(rowChunksPerThread));        \
  INFO.elementwiseLoadBytes = elementwiseLoadBytes;                            \
  INFO.columnRowsPerBlock = std::max(1u, unsigned(columnRowsPerBlock));        \
  INFO.columnUnroll = std::max(1u, unsigned(columnUnroll));                    \
  INFO.columnSliceBytes = std::max(1u, unsigned(columnSliceBytes));            \
  INFO.rowRegisterElements = std::max(1u, unsigned(rowRegisterElements));      \
  INFO.maxClusterSize = maxClusterSize;                                        \
  INFO.multiprocessors = multiprocessors;                                      \
  INFO.rowPrefetch = rowPrefetch;                                              \
  INFO.rowSharedElements = rowSharedElements;                                  \
  INFO.interleavedRowsPerThread =                                              \
      std::max(1u, unsigned(interleavedRowsPerThread));                        \
  INFO.interleavedBlockRows = interleavedBlockRows;                            \
  INFO.columnLastBlock = columnLastBlock;                                      \
  INFO.lastBlockTails = lastBlockTails;                                        \
  ::mlir::memopt::applyTarget(INFO, ::mlir::memopt::getTarget(OP));            \
  /* Whole warps: block reductions and shuffles assume them. */                \
  INFO.clusterBlockThreads = std::clamp(                                       \
      unsigned(clusterBlockThreads) / INFO.warpSize * INFO.warpSize,           \
      INFO.warpSize, INFO.maxThreadsPerBlock);

#endif // MEMOPT_LIB_TRANSFORMS_KERNELFORMATION_KNOBOPTIONS_H
