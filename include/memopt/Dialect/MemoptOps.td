//===- MemoptOps.td - memopt's own operations ---------------*- tablegen -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The kernel plan (memopt.kernel_group) and the few operations memopt's
// kernels need and upstream has no memref-level form for: thread-block
// cluster synchronization and reads of another block's shared memory
// (distributed shared memory). The kernel-level ops keep
// kernels analyzable and runnable on the host (memopt-launch-to-loops);
// memopt-lower-cluster-ops turns them into NVVM just before the GPU
// lowering.
//
//===----------------------------------------------------------------------===//

#ifndef MEMOPT_DIALECT_MEMOPTOPS_TD
#define MEMOPT_DIALECT_MEMOPTOPS_TD

include "memopt/Dialect/MemoptAttrs.td"
include "memopt/Dialect/MemoptBase.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/RegionKindInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class Memopt_Op<string mnemonic, list<Trait> traits = []>
    : Op<Memopt_Dialect, mnemonic, traits>;

def Memopt_KernelGroupOp : Memopt_Op<"kernel_group", [
    NoTerminator, SingleBlock, RecursiveMemoryEffects]> {
  let summary = "the ops of one kernel, and how it is to be built";
  let description = [{
    Holds the `linalg.generic` ops on memrefs that memopt-form-groups put
    in one kernel, in program order, and (once memopt-select-kernel-strategy
    ran, or when a user or a test pinned one) the strategy that
    memopt-emit-kernels builds: `#memopt.row`, `#memopt.streamed_row`,
    `#memopt.elementwise`, `#memopt.tile_transpose`, `#memopt.column_reduce`
    or `#memopt.naive`. The region uses values from above; it stands where
    the group's last op stood, so every value the ops use is defined
    before it.

    ```mlir
    memopt.kernel_group attributes {strategy = #memopt.row<vector = 4,
        shifted = false, threads = 128, chunks = 8, cluster = 1,
        shared_chunks = 0, blocks_per_multiprocessor = 1,
        persistent_clusters = 0, online_softmax = false>} {
      linalg.generic ... // x * x summed per row
      linalg.generic ... // x * rsqrt(mean + eps) * g
    }
    ```
  }];
  let arguments = (ins OptionalAttr<AnyAttr>:$strategy);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "attr-dict-with-keyword $body";
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [OpBuilder<(ins)>];
}

def Memopt_ClusterBarrierOp : Memopt_Op<"cluster_barrier"> {
  let summary = "barrier across every thread of a thread-block cluster";
  let description = [{
    Every thread of every block of the launch's cluster waits here until all
    have arrived. Memory operations before it (shared, distributed shared
    and global) are visible to every thread of the cluster after it
    (release on arrival, acquire on leaving). Like `gpu.barrier`, all
    threads must reach it in uniform control flow. It also keeps a block's
    shared memory alive: a block must not exit while others may still read
    its shared memory, so kernels that read it end with one.

    Lowers to `barrier.cluster.arrive.aligned` and
    `barrier.cluster.wait.aligned`.
  }];
  let assemblyFormat = "attr-dict";
}

def Memopt_ClusterArriveOp : Memopt_Op<"cluster_arrive"> {
  let summary = "first half of a split cluster barrier";
  let description = [{
    The thread arrives at the cluster barrier without waiting (release: its
    memory operations so far, distributed shared memory reads included,
    complete before any thread's matching `memopt.cluster_wait` returns).
    Every thread must reach the matching `memopt.cluster_wait` before its
    next arrival, in uniform control flow. Used to keep a block's shared
    memory alive until the other blocks' reads are done without stalling
    the block in between. Lowers to `barrier.cluster.arrive.aligned`.
  }];
  let assemblyFormat = "attr-dict";
}

def Memopt_ClusterWaitOp : Memopt_Op<"cluster_wait"> {
  let summary = "second half of a split cluster barrier";
  let description = [{
    Waits until every thread of the cluster has arrived (acquire). Lowers to
    `barrier.cluster.wait.aligned`.
  }];
  let assemblyFormat = "attr-dict";
}

def Memopt_ClusterLoadOp : Memopt_Op<"cluster_load", [
    TypesMatchWith<"result type matches the element type of the buffer",
                   "memref", "result",
                   "::llvm::cast<MemRefType>($_self).getElementType()">]> {
  let summary = "read an element of another block's shared memory";
  let description = [{
    Reads element `indices` of workgroup buffer `memref` as held by the
    block of rank `rank` in the launch's (one-dimensional) cluster, i.e.
    through distributed shared memory (`mapa` then `ld.shared::cluster`).
    The buffer must be a workgroup memref of static shape and identity
    layout; `rank` must be below the cluster size (not checked).
  }];
  let arguments = (ins
    Arg<AnyStaticShapeMemRef, "the buffer, as laid out in every block",
        [MemRead]>:$memref,
    Index:$rank,
    Variadic<Index>:$indices);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $memref `[` $indices `]` `from` $rank attr-dict `:` type($memref)
  }];
  let extraClassDeclaration = [{
    MemRefType getMemRefType() {
      return ::llvm::cast<MemRefType>(getMemref().getType());
    }
  }];
  let hasVerifier = 1;
}

def Memopt_OccupancyHintOp : Memopt_Op<"occupancy_hint"> {
  let summary = "blocks of this kernel meant to share a multiprocessor";
  let description = [{
    Inside a `gpu.launch` body: the kernel was shaped for
    `blocks_per_multiprocessor` resident blocks per multiprocessor (so that
    one block's loads overlap another's reductions and stores), and the
    code generator must keep its registers within that budget. When the
    kernel is outlined, memopt-lower-cluster-ops moves it onto the
    `gpu.func` as `nvvm.minctasm` (PTX `.minnctapersm`); on the host it is
    dropped.
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntMinValue<1>]>:
                       $blocks_per_multiprocessor);
  let assemblyFormat = "$blocks_per_multiprocessor attr-dict";
}

def Memopt_LastArrivalOp : Memopt_Op<"last_arrival"> {
  let summary = "whether this block is the last of its slot to arrive";
  let description = [{
    Inside a `gpu.launch` body, reached by every thread of the block in
    uniform control flow (like `gpu.barrier`, which it includes). The
    block's memory operations before it, every thread's, are released at
    device scope; the block then counts one arrival on counter `slot` (below
    `slots`) of the launch. The result is true in every thread of the block
    whose arrival is the `arrivals`-th on its slot, and that block acquires
    the memory operations every block of the slot released before arriving:
    it may read what they wrote (a split reduction's partials) and finish
    the work without a second kernel. Exactly `arrivals` blocks of the
    launch must arrive on each slot. The counters start at zero and the
    last block of a slot resets its own, so the next launch starts at zero
    again; launches of one kernel must not run concurrently.

    memopt-lower-cluster-ops lowers it to a zero-initialized global of
    `slots` 32-bit counters, a barrier, thread 0's `fence.acq_rel.gpu`
    and atomic add (and, in the last block, the reset and a second fence),
    and the result broadcast through shared memory; memopt-launch-to-loops to a counter on the host.
  }];
  let arguments = (ins Index:$slot,
                   ConfinedAttr<I64Attr, [IntMinValue<1>]>:$arrivals,
                   ConfinedAttr<I64Attr, [IntMinValue<1>]>:$slots);
  let results = (outs I1:$last);
  let assemblyFormat = [{
    $slot `of` $slots `after` $arrivals attr-dict
  }];
  let hasVerifier = 1;
}

#endif // MEMOPT_DIALECT_MEMOPTOPS_TD
