//===- Passes.td - memopt transformation passes ------------*- tablegen -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MEMOPT_TRANSFORMS_PASSES_TD
#define MEMOPT_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def MemoptNormalizeFrontendFormsPass
    : Pass<"memopt-normalize-frontend-forms", "func::FuncOp"> {
  let summary = "Rewrite forms frontends emit into the input contract's "
                "spelling of the same values";
  let description = [{
    Runs before the contract check, in every pipeline:
    - `bufferization.alloc_tensor` without a copy, size hint or memory
      space (triton-shared) becomes `tensor.empty`;
    - a splat tensor constant (tosa-to-linalg's scale and epsilon tensors)
      read by a linalg op becomes a scalar constant in its body (named ops
      are generalized for it); used otherwise, a `linalg.fill`;
    - scalars passed through 0-d tensors: `tensor.from_elements` and
      `tensor.insert` into a 0-d tensor become a `linalg.fill`; a
      `tensor.extract` of a 0-d tensor used in linalg.generic bodies
      becomes an input of each (read through the map to no dims), and a
      `linalg.fill` of it a linalg.generic broadcasting the 0-d tensor.
    What stays outside the contract (non-splat dense constants, a scalar
    used by ops outside linalg) is left for memopt-check-input-contract to
    name.
  }];
  let dependentDialects = ["linalg::LinalgDialect", "tensor::TensorDialect",
                           "arith::ArithDialect"];
}

def MemoptFoldSlicesPass : Pass<"memopt-fold-slices", "func::FuncOp"> {
  let summary = "Static tensor slices, inserts and concatenations as "
                "linalg.generic ops and indexing maps";
  let description = [{
    Runs after memopt-decompose-linalg in the optimizing and baseline
    pipelines (the CPU references keep the slices, bufferized upstream, as
    an independent check):
    - `tensor.extract_slice` read by a linalg.generic input: the generic
      reads the slice's source through the composed map (source dim j at
      offset_j + stride_j * i, a dropped dim at its offset); other uses read
      a copy generic;
    - `tensor.concat`: a generic over the result selecting, by the index
      along the concatenated dim, the piece it lies in (piece p, n long at
      offset o, read at (i + c) mod n with c = n * ceil(o / n) - o);
    - `tensor.insert_slice` with unit strides: a generic over the
      destination selecting the source inside the slice's box and the
      destination outside it (the source alone into a tensor.empty, the
      constant into a constant fill);
    - `tensor.pad` by a constant (F.pad): the source inserted into a fill;
    - `tensor.expand_shape` of a slice splitting a sliced dim whose offset
      and extent are multiples of its size (split then view): a slice of
      the reshaped source.
    Values are unchanged; what it cannot fold (dynamic slices, strided
    inserts) the contract check has already refused.
  }];
  let dependentDialects = ["linalg::LinalgDialect", "tensor::TensorDialect",
                           "arith::ArithDialect"];
}

def MemoptLowerCopiesPass : Pass<"memopt-lower-copies"> {
  let summary = "memref.copy as linalg.copy, for code built for the host";
  let description = [{
    Host lowering (the CPU references and host emulation): copies between
    non-contiguous views (bufferized slices, inserts and concatenations)
    become loops through linalg.copy instead of calls of the C runner
    library's memrefCopy, which the shared objects do not link.
  }];
  let dependentDialects = ["linalg::LinalgDialect"];
}

def MemoptFoldOutputCopiesPass
    : Pass<"memopt-fold-output-copies", "func::FuncOp"> {
  let summary = "Write results through views of their out-parameters "
                "instead of copying them there";
  let description = [{
    After buffer-results-to-out-parameters: a `memref.copy` into an
    out-parameter (its only use) from reshapes (`memref.expand_shape`,
    `memref.collapse_shape`) of a static allocation of the function, when
    every other use of the allocation and its reshapes comes before the
    copy (deallocations aside), becomes the allocation replaced by the
    inverse reshapes of the out-parameter: a result of unit dims collapsed
    away (a whole-tensor sum into tensor<1xf32>, keepdim statistics) is
    then written in place, and the launch manifest has no copy step (a
    device-to-device copy costs as much as a launch).
  }];
  let dependentDialects = ["memref::MemRefDialect"];
}

def MemoptCheckInputContractPass
    : Pass<"memopt-check-input-contract", "ModuleOp"> {
  let summary = "Reject IR outside memopt's tensor-level input contract with a "
                "diagnostic naming the offending op";
  let description = [{
    Verifies that every `func.func` with a body is in the input contract of
    shared/DESIGN.md: statically shaped ranked tensors of f32/f16/bf16/f64 or
    integer elements, and only ops from `linalg`, `tensor` (empty,
    expand_shape, collapse_shape), `arith`, `math` and `func.return`.
    `linalg.generic` indexing maps must be projected permutations or
    constant-index maps. Non-splat tensor constants (placed in the kernels'
    PTX) of more than `max-constant-bytes` are refused. Any violation is an
    error at the op's location and the pass fails; nothing is rewritten.
  }];
  let options = [
    Option<"maxConstantBytes", "max-constant-bytes", "int64_t",
           /*default=*/"16 << 20",
           "Largest non-splat tensor constant, in bytes, placed in the PTX">,
  ];
}

def MemoptPackSubByteIntegersPass
    : Pass<"memopt-pack-sub-byte-integers", "func::FuncOp"> {
  let summary = "Store i2/i4 function inputs packed in bytes, unpacked in "
                "the bodies that read them";
  let description = [{
    Runs after memopt-decompose-linalg, in every pipeline. A function
    argument of `tensor<... x N x i4>` (or i2) becomes `tensor<... x N/2 x
    i8>` (N/4 for i2): element j of the innermost dim is bits
    [4 (j mod 2), 4 (j mod 2) + 4) of byte j floordiv 2, the layout of
    PyTorch's, IREE's and GPTQ's packed int4 weights (low nibble first).
    Reshapes of it are rewritten on the packed tensor (the innermost dims
    divided by the factor). In each linalg op reading it (named ops are
    generalized), the loop over the packed dim is split into the byte index
    and, innermost, the element's position in its byte (extent 2 for i4):
    the byte is read through a projected permutation, the op's other
    operands along that loop are expanded (`tensor.expand_shape`) and its
    results collapsed back, and the body computes the i4 value as
    `trunci(shrui(byte, 4 * lane))`. A constant index into the packed dim
    reads byte c floordiv 2 at lane c mod 2. The body's ops on i4 (extsi,
    extui, sitofp, uitofp) are
    unchanged. The launch manifest describes the buffer as its i8 storage
    and the logical i4 tensor (`packed`). memopt-check-input-contract has
    already refused sub-byte results and intermediates and innermost dims
    not a multiple of the factor; this pass refuses, with an error at the
    op, any other reader than a linalg input or a reshape.
  }];
  let dependentDialects = ["linalg::LinalgDialect", "tensor::TensorDialect",
                           "arith::ArithDialect"];
}

def MemoptDecomposeLinalgPass
    : InterfacePass<"memopt-decompose-linalg", "FunctionOpInterface"> {
  let summary = "Decompose aggregate linalg ops (linalg.softmax) and generalize "
                "every named linalg op to linalg.generic";
  let description = [{
    Kernel formation works on `linalg.generic` only. This pass calls
    `AggregatedOpInterface::decomposeOperation` on ops such as
    `linalg.softmax` (max-reduce, sub, exp, sum-reduce, div) and then
    generalizes all named structured ops:

    ```mlir
    %0 = linalg.add ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    // becomes
    %0 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
           ins(%a, %b : ...) outs(%e : ...) { ^bb0(%x: f32, %y: f32, %o: f32):
             %s = arith.addf %x, %y : f32
             linalg.yield %s : f32 } -> tensor<4xf32>
    ```
  }];
  let dependentDialects = ["linalg::LinalgDialect", "arith::ArithDialect",
                           "math::MathDialect"];
  let statistics = [
    Statistic<"numDecomposed", "num-decomposed", "Aggregate ops decomposed">,
    Statistic<"numGeneralized", "num-generalized", "Named ops generalized">
  ];
}

// The tuning knobs of kernel formation, shared by memopt-form-kernels,
// memopt-form-groups and memopt-select-kernel-strategy. Chip facts at 0 come
// from the module's #memopt.target.
defvar MemoptKernelShapeOptions = [
    Option<"blockSize", "block-size", "unsigned", "256",
           "Threads per block of naive and elementwise kernels">,
    Option<"maxThreadsPerBlock", "max-threads-per-block", "unsigned", "0",
           "Largest block to form (0: the target's)">,
    Option<"warpSize", "warp-size", "unsigned", "0",
           "Threads per warp (0: the target's)">,
    Option<"vectorBytes", "vector-bytes", "unsigned", "0",
           "Widest global access in bytes (0: the target's)">,
    Option<"rowChunksPerThread", "row-chunks-per-thread", "unsigned", "8",
           "Row kernels: vector chunks of a row each thread holds">,
    Option<"elementwiseLoadBytes", "elementwise-load-bytes", "unsigned", "16",
           "Elementwise kernels: least bytes each thread loads (groups whose "
           "chunk loads fewer take several chunks per thread)">,
    Option<"columnRowsPerBlock", "column-rows-per-block", "unsigned", "256",
           "Column reductions: rows reduced by one block">,
    Option<"columnUnroll", "column-unroll", "unsigned", "16",
           "Column reductions: rows loaded per loop iteration">,
    Option<"columnSliceBytes", "column-slice-bytes", "unsigned", "64",
           "Whole-column reductions: contiguous row bytes per block">,
    Option<"rowRegisterElements", "row-register-elements", "unsigned", "32",
           "Row kernels: most row elements per thread kept in registers; "
           "longer rows are split over a cluster or streamed in tiles">,
    Option<"maxClusterSize", "max-cluster-size", "unsigned", "0",
           "Row kernels: most blocks of a thread-block cluster that share a "
           "row too long for one block's registers (0: the target's limit, "
           "16 on sm_90, 1 before it; 1 streams such rows instead; over the "
           "target's portable_cluster_size is non-portable)">,
    Option<"clusterBlockThreads", "cluster-block-threads", "unsigned", "512",
           "Row kernels split over a cluster: threads per block (1024 / this "
           "many blocks share a multiprocessor's registers)">,
    Option<"rowPrefetch", "row-prefetch", "bool", "false",
           "Row kernels split over a cluster: persistent clusters that copy "
           "their next row into shared memory (cp.async) while they reduce "
           "and write the current one, in place of row-shared-elements "
           "(measured slower than one row per cluster on an H200)">,
    Option<"interleavedRowsPerThread", "interleaved-rows-per-thread",
           "unsigned", "1",
           "Interleaved row kernels: most adjacent rows one thread holds, "
           "each access along them one vector across them (1: one row a "
           "thread; several measured slower on an H100, run 52: softmax over "
           "dim 0 of 8192 x 4096 f32 41.8% of copy at 4 against 62.4%, "
           "LayerNorm over the batch in bf16 12.0% at 8 against 40.2%: the "
           "rows' replicated state spills at 64 registers)">,
    Option<"interleavedBlockRows", "interleaved-block-rows", "unsigned",
           "0",
           "Interleaved row kernels: most rows one block holds side by side "
           "(0: a warp's worth; at least 8, a sector of 4-byte elements; "
           "fewer rows a block make a cluster's blocks of "
           "cluster-block-threads, several per multiprocessor)">,
    Option<"columnLastBlock", "column-last-block", "bool", "true",
           "Column reductions split over slices of rows: the last block of "
           "each column block to finish combines the slices' partials "
           "(false: a second kernel combines them)">,
    Option<"lastBlockTails", "last-block-tails", "bool", "true",
           "A one-row reduction after a row kernel that writes what it reads "
           "(a split reduction's second stage) runs in that kernel's last "
           "block to finish (false: a kernel of its own)">,
    Option<"rowSharedElements", "row-shared-elements", "unsigned", "32",
           "Row kernels split over a cluster: elements per thread held in "
           "shared memory besides those in registers (0: registers only); "
           "fewer blocks then share a row">,
    Option<"multiprocessors", "multiprocessors", "unsigned", "0",
           "Streaming multiprocessors to plan for (0: the target's; "
           "H100/H200 SXM: 132): sizes persistent grids and "
           "column-reduction splits">
];

def MemoptFormKernelsPass
    : InterfacePass<"memopt-form-kernels", "FunctionOpInterface"> {
  let summary = "Turn linalg.generic ops on memrefs into gpu.launch kernels, "
                "one per op (naive) or one per fused group (fused)";
  let description = [{
    Runs after bufferization. Every `linalg.generic` on memrefs becomes part
    of a `gpu.launch`. The composition of memopt-form-groups,
    memopt-select-kernel-strategy and memopt-emit-kernels (the pipelines run
    those three; this pass keeps hand-written RUN lines working).

    * `strategy=naive` (the baseline): one kernel per op, one thread per point
      of the parallel iteration space, the innermost parallel loop mapped to
      consecutive threads (coalesced along the contiguous dimension),
      reduction loops run sequentially in the thread, scalar accesses.
    * `strategy=fused`: consecutive ops that share a row space (outer
      parallel dims, one inner dim) form one kernel group. Groups with a
      reduction over the inner dim become row kernels (one CTA per row, the
      row held in registers, warp shuffles and a shared-memory block
      reduction, a single pass over DRAM); pure pointwise groups become
      vectorized elementwise kernels (16-byte accesses where the shapes
      prove alignment); 2-D transposes are staged through a padded
      shared-memory tile. Intermediates used only inside a group never reach
      DRAM. Ops that fit no strategy fall back to the naive form with a
      remark saying why.

    Rows longer than `row-register-elements` per thread of the largest block
    are split over a thread-block cluster (sm_90): each block holds a slice,
    `row-register-elements` per thread in registers and `row-shared-elements`
    more in shared memory (copied in with cp.async, read back in one pass
    per reduction and one for the results), and the blocks combine their
    totals through distributed shared memory, so the row is read once.
    Softmax (a maximum, then the sum of exp(v - max)) exchanges once: each
    block's maximum and its sum from it, combined online. Blocks have half
    `cluster-block-threads` (four per multiprocessor) where the cluster then
    stays within the portable 8 blocks, or within `max-cluster-size` when
    the ops compute a math function of each element such as exp. Rows too
    long for that, `max-cluster-size=1` and earlier chips stream the row in
    tiles (one pass per reduction and one for the results), which
    memopt-pipeline-loads prefetches.
  }];
  let dependentDialects = ["gpu::GPUDialect", "scf::SCFDialect",
                           "arith::ArithDialect", "memref::MemRefDialect",
                           "vector::VectorDialect", "math::MathDialect",
                           "affine::AffineDialect", "ub::UBDialect",
                           "nvgpu::NVGPUDialect",
                           "memopt::MemoptDialect"];
  let options = [
    Option<"strategy", "strategy", "mlir::memopt::KernelStrategy",
           "mlir::memopt::KernelStrategy::Fused",
           "Kernel formation strategy",
           [{::llvm::cl::values(
             clEnumValN(mlir::memopt::KernelStrategy::Naive, "naive",
                        "One kernel per op, scalar accesses (baseline)"),
             clEnumValN(mlir::memopt::KernelStrategy::Fused, "fused",
                        "Fused row / elementwise / transpose kernels"))}]>,
  ] # MemoptKernelShapeOptions;
  let statistics = [
    Statistic<"numKernels", "num-kernels", "Kernels formed">,
    Statistic<"numFusedOps", "num-fused-ops", "Ops placed in multi-op kernels">
  ];
}

def MemoptSetTargetPass : Pass<"memopt-set-target", "ModuleOp"> {
  let summary = "Attach the #memopt.target description of a known chip to the "
                "module, the chip facts every later pass reads";
  let description = [{
    Sets the module's `memopt.target` attribute to the description of
    `chip` from the table of known chips (lib/Dialect/Target.cpp:
    multiprocessors, warp size, registers, shared memory per multiprocessor
    and per block, L2 bytes, portable and largest cluster, widest access).
    A module that already has one keeps it, so a test or a user can pin any
    fact. An unknown chip is an error.

    ```mlir
    module attributes {memopt.target = #memopt.target<chip = "sm_90",
        multiprocessors = 132, ...>} { ... }
    ```
  }];
  let dependentDialects = ["memopt::MemoptDialect"];
  let options = [
    Option<"chip", "chip", "std::string", "\"sm_90\"", "NVVM chip">
  ];
}

def MemoptInterchangeNormalizationsPass
    : InterfacePass<"memopt-interchange-normalizations",
                    "FunctionOpInterface"> {
  let summary = "Normalizations over a non-innermost loop iterate with that "
                "loop innermost, over permuted buffers";
  let description = [{
    A run of consecutive linalg.generic ops on buffers over one iteration
    space that reduce a loop k which is not the innermost one (a parallel
    loop inside it) and read those results back over the whole space (a
    softmax over dim 0, a LayerNorm over the batch dim) has every op over
    the whole space interchanged so that k is innermost. Operands whose
    maps become permutations are given identity maps over permuted
    buffers: buffers only the run uses are allocated in the new order, the
    others are read and written through `memref.transpose` views (moved
    into the kernels by memopt-emit-kernels). The run then forms one row
    group whose rows, the points of the contiguous dim, lie side by side
    (the interleaved `#memopt.row`), which holds each row on chip and reads
    the input once instead of once per reduction. Ops over the parallel
    loops alone (fills, per-column scalars) join the run unchanged.

    Applied where the interleaved row kernel holds a row of the reduced
    loop in registers (of a cluster of at most max-cluster-size blocks) and
    the rows (the points of the other loops) are a multiple of 8; otherwise
    a remark at the reduction says why. A lone column reduction (no op
    reads its result over the whole space) is left to the column family.
    Only the optimizing pipeline runs it.
  }];
  let dependentDialects = ["memref::MemRefDialect"];
  let options = MemoptKernelShapeOptions;
}

def MemoptSplitRowReductionsPass
    : InterfacePass<"memopt-split-row-reductions", "FunctionOpInterface"> {
  let summary = "Reductions of a few long rows as two reductions over "
                "row segments";
  let description = [{
    A linalg.generic on buffers reducing its innermost loop alone into one
    output, with fewer rows (points of the other loops) than the target has
    multiprocessors and rows of at least two segments of 128 x
    row-register-elements (4096) elements (a sum over
    a whole tensor; 16 rows of a million elements), becomes two reductions:
    stage 1 reads each row as K segments (the inputs' row dim expanded by
    memref.expand_shape) and reduces every segment, through the op's own
    body, into a partial [rows..., K] seeded with the combiner's identity;
    stage 2 combines the partial over K into the original output, in
    segment order (deterministic). K is the largest divisor of the row
    length within 8 segments per multiprocessor over all rows whose
    segments keep that length. Both stages are row reductions with blocks for
    every multiprocessor. Applied when the op's combiner is associative
    and commutative, every buffer it reads is a function argument that
    nothing writes (a producer would be materialized; a statistic of the
    same rows, log-sum-exp's maximum, would no longer share its kernel)
    and no op reads its result back over the rows, directly or through ops
    over fewer points (a normalization keeps the row for itself);
    otherwise a remark says why. Stage 1s over the same segments are placed
    one after another, so that one row group reads their inputs once. It
    reassociates the reduction, so only the optimizing pipeline runs it.
  }];
  let dependentDialects = ["memref::MemRefDialect", "arith::ArithDialect"];
  let options = MemoptKernelShapeOptions;
}

def MemoptFormGroupsPass
    : InterfacePass<"memopt-form-groups", "FunctionOpInterface"> {
  let summary = "Partition the linalg.generic ops on memrefs into kernel "
                "groups (memopt.kernel_group), the fusion decision";
  let description = [{
    Consecutive ops that share a row space (outer parallel dims, one inner
    dim) form one group; a transposing op forms a group with the
    elementwise ops fused on either side of its tile; a column reduction
    takes a fill of its output just before it when its whole-column form
    seeds the result with it; every other op is a group of its own. Each
    group becomes a `memopt.kernel_group` at the position of its last op.
    An op left out of the group before it gets a remark saying why (a
    producer it cannot take is materialized to memory). `strategy=naive`
    puts every op in a group of its own. Ops already in a kernel group are
    left alone.

    ```mlir
    linalg.generic ... outs(%sq)      // sum of x * x per row
    linalg.generic ... ins(%sq) ...   // x * rsqrt(mean + eps) * g
    // becomes
    memopt.kernel_group {
      linalg.generic ... outs(%sq)
      linalg.generic ... ins(%sq) ...
    }
    ```
  }];
  let dependentDialects = ["memopt::MemoptDialect"];
  let options = [
    Option<"strategy", "strategy", "mlir::memopt::KernelStrategy",
           "mlir::memopt::KernelStrategy::Fused",
           "Grouping: one op per group (naive) or fused groups",
           [{::llvm::cl::values(
             clEnumValN(mlir::memopt::KernelStrategy::Naive, "naive",
                        "One op per group (baseline)"),
             clEnumValN(mlir::memopt::KernelStrategy::Fused, "fused",
                        "Fused groups"))}]>
  ] # MemoptKernelShapeOptions;
  let statistics = [
    Statistic<"numGroups", "num-groups", "Kernel groups formed">
  ];
}

def MemoptSelectKernelStrategyPass
    : InterfacePass<"memopt-select-kernel-strategy", "FunctionOpInterface"> {
  let summary = "Choose and record each kernel group's strategy as a typed "
                "attribute whose fields are every decision of its kernel";
  let description = [{
    For every `memopt.kernel_group` without a `strategy`, tries the
    families in priority order and records the first that applies:
    `#memopt.tile_transpose` (a transposing op and the ops fused around its
    tile), `#memopt.row` (a reduction over the innermost loop: threads,
    vector, chunks, cluster, shared chunks, persistence, online softmax) or
    `#memopt.streamed_row` (rows too long for a cluster),
    `#memopt.elementwise` (vector, layout, threads), `#memopt.column_reduce`
    (whole columns or row slices) and `#memopt.naive` with the reason, and a
    remark on each op, when none does. Remarks also say why optional forms
    were not taken (shared slices, persistent clusters). A group that
    already has a strategy (pinned by a user or a test) is left as it is;
    memopt-emit-kernels checks it.

    ```mlir
    memopt.kernel_group attributes {strategy = #memopt.row<vector = 4,
        shifted = false, threads = 128, chunks = 8, cluster = 1,
        shared_chunks = 0, blocks_per_multiprocessor = 1,
        persistent_clusters = 0, online_softmax = false>} { ... }
    ```
  }];
  let dependentDialects = ["memopt::MemoptDialect", "gpu::GPUDialect"];
  let options = MemoptKernelShapeOptions;
}

def MemoptEmitKernelsPass
    : InterfacePass<"memopt-emit-kernels", "FunctionOpInterface"> {
  let summary = "Replace each kernel group by exactly the gpu.launch its "
                "strategy attribute describes";
  let description = [{
    Builds the kernel of every `memopt.kernel_group` from its `strategy`
    and the module's `#memopt.target`, deciding nothing: buffers produced
    and consumed only inside a group stay in registers and are never
    allocated. A group without a strategy, or with one that cannot be
    honoured (a cluster over the target's limit, a vector width the row
    length forbids, shared memory over the target's budget, ops that do not
    form the family's group), is an error at the group.
  }];
  let dependentDialects = ["gpu::GPUDialect", "scf::SCFDialect",
                           "arith::ArithDialect", "memref::MemRefDialect",
                           "vector::VectorDialect", "math::MathDialect",
                           "affine::AffineDialect", "ub::UBDialect",
                           "nvgpu::NVGPUDialect",
                           "memopt::MemoptDialect"];
  let statistics = [
    Statistic<"numKernels", "num-kernels", "Kernel groups emitted">,
    Statistic<"numFusedOps", "num-fused-ops", "Ops placed in multi-op kernels">
  ];
}

def MemoptBankFixPass : Pass<"memopt-bank-fix", "ModuleOp"> {
  let summary = "Remove shared-memory bank conflicts of workgroup buffers by "
                "padding or XOR swizzling, proven by the lane access model";
  let description = [{
    For every workgroup buffer (a `gpu.launch` or `gpu.func` workgroup
    attribution, a `memref.alloca`/`memref.alloc` in workgroup memory, or a
    workgroup `memref.global`) whose accesses the bank-conflict analysis
    (memopt/Analysis/AccessPattern.h) finds conflicting:

    * `pad` grows the innermost dimension by one access width (the widest
      access of the buffer: 4, 8 or 16 bytes; one 4-byte bank word for
      narrower elements); indices are unchanged.
    * `swizzle` keeps the shape and rewrites the innermost index of every
      access: `c' = ((c / v) xor (r mod m)) * v + c mod v` with `r` the
      row index, `v` the elements of the widest access and `m` the number
      of `v`-element chunks in 128 bytes (one pass over the 32 banks), at
      most the chunks of a row; both powers of two.
    * `auto` keeps the padding if it proves conflict-free, else the swizzle.

    A change is kept only when the analysis proves every access of the
    buffer conflict-free afterwards; otherwise it is undone and a remark
    says why. Buffers used by anything but loads and stores (views, calls),
    rank-1 buffers and accesses the model cannot evaluate are left alone
    with a remark.
  }];
  let options = [
    Option<"mode", "mode", "mlir::memopt::BankFixMode",
           "mlir::memopt::BankFixMode::Auto", "Repair to apply",
           [{::llvm::cl::values(
             clEnumValN(mlir::memopt::BankFixMode::None, "none", "No change"),
             clEnumValN(mlir::memopt::BankFixMode::Pad, "pad",
                        "Pad the innermost dimension"),
             clEnumValN(mlir::memopt::BankFixMode::Swizzle, "swizzle",
                        "XOR-swizzle the innermost index"),
             clEnumValN(mlir::memopt::BankFixMode::Auto, "auto",
                        "Padding if proven, else swizzle"))}]>,
    Option<"sharedMemoryBytes", "shared-memory-bytes", "unsigned", "0",
           "Largest static shared memory of one buffer after padding (0: "
           "the target's shared_memory_per_block)">
  ];
  let dependentDialects = ["arith::ArithDialect", "memopt::MemoptDialect"];
}

def MemoptReportTrafficPass : Pass<"memopt-report-traffic", "ModuleOp"> {
  let summary = "Print, per kernel, the predicted DRAM bytes, sector "
                "efficiency, bank conflicts, arithmetic intensity and "
                "roofline bound";
  let description = [{
    A read-only pass: for every `gpu.launch` and every `gpu.func` kernel it
    prints one table row to standard error (memopt/Analysis/KernelReport.h
    states what is counted and assumed) and, with `json=FILE`, writes the
    same figures as JSON. The device of the roofline is described by its
    DRAM bandwidth and peak operation rate (defaults: an H200).

    ```
    memopt-opt kernels.mlir --memopt-report-traffic=json=report.json -o /dev/null
    ```
  }];
  let options = [
    Option<"json", "json", "std::string", "\"\"",
           "Also write the report as JSON to this file">,
    Option<"bandwidthGBs", "bandwidth-gbs", "double", "4800.0",
           "DRAM bandwidth of the roofline device in GB/s">,
    Option<"peakGops", "peak-gops", "double", "66900.0",
           "Peak operation rate of the roofline device in Gop/s">
  ];
}

def MemoptWidenAccessesPass : Pass<"memopt-widen-accesses", "ModuleOp"> {
  let summary = "Combine a thread's consecutive scalar global loads and "
                "stores into 8- or 16-byte vector accesses proven aligned";
  let description = [{
    In every `gpu.launch` and `gpu.func`, scalar `memref.load`s (and
    `memref.store`s) of one block that read (write) `n` consecutive elements
    of the same memref, `base + 0 .. base + n - 1` in the innermost index
    with the other indices equal, become one `vector.load`
    (`vector.store`) of `n` elements with `alignment = n * element size`,
    when that is 8 or 16 bytes and the lane access model
    (memopt/Analysis/AccessPattern.h) proves every lane's first address a
    multiple of it. Loads are only combined when no op between them may
    write memory; stores when nothing between them reads or writes memory.
    Without the alignment proof the accesses stay scalar and a remark says
    why: LLVM's NVPTX backend would otherwise split an unaligned vector
    access into scalars, or fault on a misaligned one.
  }];
  let dependentDialects = ["vector::VectorDialect"];
}

def MemoptPipelineLoadsPass : Pass<"memopt-pipeline-loads", "ModuleOp"> {
  let summary = "Software-pipeline loops over tiles: global loads become "
                "cp.async copies into a multi-buffered shared-memory ring, "
                "issued stages - 1 iterations ahead";
  let description = [{
    In every `gpu.launch`, each innermost `scf.for` with a constant trip
    count and no barrier or shuffle has its global loads (`vector.load` of
    4, 8 or 16 bytes with that alignment, or a scalar `memref.load`) whose
    address depends only on the induction variable and loop-invariant
    values, on buffers the loop does not write, turned into
    `nvgpu.device_async_copy` into a ring `[stages][threads][elements]` in
    dynamic shared memory (each thread its own slots: no barrier needed),
    one `nvgpu.device_async_create_group` and one
    `nvgpu.device_async_wait {numGroups = stages - 1}` per iteration, and a
    load from the ring where the value is used. Upstream's
    `scf::pipelineForLoop` then rewrites the loop (prologue, steady state)
    with the copies in stage 0 and the rest in stage `stages - 1`; the
    epilogue is predicated rather than peeled (copies past the end read
    zero bytes, their commit still runs), so each iteration commits one
    group. `stages=0` picks the deepest ring (at most 4) that fits
    `shared-budget-bytes`. Loops and loads it cannot handle get a remark
    saying why (dynamic trip counts, fewer iterations than stages,
    synchronization, a written or unaligned buffer, ...).
  }];
  let dependentDialects = ["nvgpu::NVGPUDialect", "arith::ArithDialect",
                           "memref::MemRefDialect", "vector::VectorDialect",
                           "gpu::GPUDialect", "memopt::MemoptDialect"];
  let options = [
    Option<"stages", "stages", "unsigned", "0",
           "Tiles in flight (1 = copy and wait each iteration); 0 = from the "
           "shared-memory budget">,
    Option<"sharedBudgetBytes", "shared-budget-bytes", "unsigned", "65536",
           "Shared memory the rings of one kernel may use (default stages)">,
    Option<"maxSharedBytes", "max-shared-bytes", "unsigned", "0",
           "Shared memory one block may use (0: the target's "
           "max_shared_memory_per_block, 227 KiB on sm_90)">
  ];
}

def MemoptLaunchToLoopsPass
    : InterfacePass<"memopt-launch-to-loops", "FunctionOpInterface"> {
  let summary = "Run barrier-free gpu.launch kernels as sequential loops on the "
                "host, for CPU differential testing";
  let description = [{
    Replaces each `gpu.launch` whose body has no barrier, shuffle or
    workgroup memory by `scf.for` loops over blocks and threads. The result
    runs on the CPU through the reference lowering, so transformed kernels
    can be compared against the original function. A kernel that needs
    lock-step execution is reported with an error.
  }];
  let dependentDialects = ["scf::SCFDialect", "arith::ArithDialect",
                           "cf::ControlFlowDialect"];
}

def MemoptLowerClusterOpsPass : Pass<"memopt-lower-cluster-ops"> {
  let summary = "Lower memopt's cluster operations to NVVM";
  let description = [{
    Runs on outlined kernels before GPU-to-NVVM conversion.
    `memopt.cluster_barrier` becomes `nvvm.cluster.arrive` and
    `nvvm.cluster.wait` (aligned); `memopt.cluster_load` becomes the
    buffer's shared address (`memref.extract_aligned_pointer_as_index`),
    mapped into the other block's window with `nvvm.mapa` and read through
    an `llvm.load` in the shared::cluster address space.
    `memopt.occupancy_hint` becomes the enclosing kernel's `nvvm.minctasm`
    (PTX `.minnctapersm`), which bounds its registers.
    `memopt.last_arrival` becomes a zero-initialized `memref.global` of its
    counters in the kernel module, a workgroup flag of the kernel, and
    thread 0's fenced `memref.atomic_rmw` between two barriers.
  }];
  let dependentDialects = ["NVVM::NVVMDialect", "LLVM::LLVMDialect",
                           "arith::ArithDialect", "memref::MemRefDialect",
                           "scf::SCFDialect", "gpu::GPUDialect"];
}

def MemoptMergeKernelModulesPass
    : Pass<"memopt-merge-kernel-modules", "ModuleOp"> {
  let summary = "Move every outlined gpu.func into one gpu.module so the "
                "program becomes a single PTX module";
  let description = [{
    `gpu-kernel-outlining` creates one `gpu.module` per launch. The runtime
    loads one PTX module per program, so this pass moves all kernels into
    the first `gpu.module` (renaming on clashes) and retargets every
    `gpu.launch_func`. Modules with different targets are left alone and
    reported.
  }];
  let dependentDialects = ["gpu::GPUDialect"];
}

def MemoptMarkReadOnlyArgsPass
    : Pass<"memopt-mark-readonly-args", "ModuleOp"> {
  let summary = "Mark kernel buffer arguments that are only read and never "
                "alias another argument, so loads use the read-only path";
  let description = [{
    For every outlined `gpu.func`, a memref argument gets `llvm.noalias` and
    `llvm.readonly` when no op of the kernel writes it and, at every
    `gpu.launch_func` of the kernel, its buffer (through reshaping views) is
    distinct from every other buffer argument. The NVPTX backend then
    selects non-coherent loads (`ld.global.nc`). Written arguments are left
    alone; read-only arguments that may alias another get a remark.
  }];
  let statistics = [
    Statistic<"numMarked", "num-marked", "Arguments marked read-only">
  ];
}

def MemoptBoolVectorsAsBytesPass : Pass<"memopt-bool-vectors-as-bytes"> {
  let summary = "Give vector-of-i1 memory accesses their byte-per-element "
                "meaning";
  let description = [{
    Runs on the LLVM dialect (kernel modules and the host entry point).
    memopt stores i1 one byte per element, and a scalar `llvm.load` of i1
    reads one byte; a vector of i1 is bit-packed in LLVM's memory model, so
    a widened `load <4 x i1>` would read four bools from the low bits of
    one byte. Every load, store, masked load and masked store of a vector
    of i1 here moves a vector of i8 instead (truncated after a load,
    zero-extended before a store). A gather or scatter of i1 data is an
    error.
  }];
}

def MemoptFixSharedGlobalsPass : Pass<"memopt-fix-shared-globals"> {
  let summary = "Give NVVM shared-memory globals the linkage and alignment "
                "the NVPTX backend needs";
  let description = [{
    Runs on the LLVM dialect of a kernel module, after GPU-to-NVVM
    conversion. Upstream lowers `gpu.dynamic_shared_memory` to an
    `internal` zero-sized global in address space 3; the NVPTX backend then
    demotes it to a one-byte static `.shared` variable instead of the
    `.extern .shared` array that starts dynamic shared memory, so every
    access past its first byte lands in the static variables that follow.
    This pass makes zero-sized shared globals `external`, and raises every
    shared global's alignment to 16 bytes, because LLVM's load/store
    vectorizer may combine its scalar accesses into 16-byte ones.
  }];
}

def MemoptLowerGpuMathPass : Pass<"memopt-lower-gpu-math"> {
  let summary = "Lower math ops in GPU kernels without libdevice: native "
                "PTX instructions or polynomial approximations";
  let description = [{
    Upstream NVVM conversion turns most `math` ops into libdevice calls,
    which only resolve when the CUDA toolkit is found at compile time (the
    result would depend on the environment). This pass lowers them first:
    sqrt, exp2, floor, ceil, roundeven, trunc, absf, fma, copysign and
    arith.maxnumf/minnumf become LLVM intrinsics with a native PTX form (`llvm.call_intrinsic`);
    `exp(x)` becomes `exp2(x * log2(e))`; tanh, rsqrt, powf and the other
    compound functions are expanded; log, erf, sin, cos, atan and friends
    use MLIR's polynomial approximations; f16/bf16 math runs in f32. A math
    op left over is an error naming it.

    An f32 `arith.divf` by a divisor that several divisions share, or by
    one defined outside the loop the division runs in (softmax dividing a
    row by its sum), becomes a multiplication by that divisor's reciprocal,
    computed once before the first of them: one correctly rounded
    `rcp.rn.f32` in place of a `div.rn.f32` per element, within 1.5 ulp of
    the correctly rounded quotient instead of 0.5 (Triton's default
    `div.full.f32` is within 2). Over the full range: a divisor below
    2^-126 or above 2^126 in magnitude is scaled by 2^64 or 2^-64 before its
    reciprocal is taken and each product by the same factor after (exact
    scalings), so 0, inf and NaN divisors give what the division gives. The
    pipeline runs this pass before loops become branches.
  }];
  let dependentDialects = ["LLVM::LLVMDialect", "arith::ArithDialect"];
}

def MemoptPrepareBoundaryPass
    : InterfacePass<"memopt-prepare-boundary", "FunctionOpInterface"> {
  let summary = "Make function inputs read-only and every returned tensor a "
                "distinct new buffer before bufferization";
  let description = [{
    The caller owns the input buffers: every tensor argument gets
    `bufferization.writable = false`, so an op whose destination is an
    argument writes a copy instead of the caller's data. A result that is
    an argument, or a value returned more than once, is copied by an
    identity `linalg.generic` into a fresh tensor, so that every output has
    its own buffer (upstream buffer-results-to-out-params crashes on
    duplicate results).

    With `unshare-destinations` (the optimizing pipeline), every use but the
    first of a destination several linalg ops share (a `tensor.empty`, or a
    fill of one, as frontends write one zero accumulator for two reductions
    or one output shape for two results) gets its own copy of the producer
    at the use: bufferization then gives each op a buffer of its own instead
    of a `memref.copy` of the shared fill (which splits kernel groups) or a
    result written over a value another op still reads (an in-place update
    no kernel fuses). The baseline keeps the frontend's buffer reuse.
  }];
  let dependentDialects = ["linalg::LinalgDialect", "tensor::TensorDialect",
                           "bufferization::BufferizationDialect"];
  let options = [
    Option<"unshareDestinations", "unshare-destinations", "bool", "false",
           "Give each linalg op's destination its own empty tensor or fill">
  ];
}

def MemoptWidenFloatsPass
    : Pass<"memopt-widen-floats", "func::FuncOp"> {
  let summary = "Compute a tensor-level function's body in f64";
  let description = [{
    For the f64 CPU reference (memopt-compile --pipeline=reference-f64):
    after the input stage, every f16, bf16 and f32 value in the body of the
    function becomes f64 (tensors, block arguments, constants; conversions
    between those float types disappear), the arguments are widened on
    entry and the results rounded to their types on return, so the
    signature is unchanged. The reference is then the function's value
    computed in f64 and rounded once, where the literal one sums long rows
    in the element type (softmax over 131072 f16 values stalls near 2048).
    bf16 results are rounded through f32 rounded to odd, so that they are
    correctly rounded too. Rounding the function asks for in between (a
    truncation to f16 and back) is dropped with the rest: a kernel that
    keeps it may differ from this reference by that rounding. An op, type
    or constant outside what the input stage produces (generics, empty and
    reshaped tensors, arith, math; no bitcasts, no dense_resource floats) is
    an error naming it.
  }];
  let dependentDialects = ["linalg::LinalgDialect", "tensor::TensorDialect",
                           "arith::ArithDialect", "math::MathDialect"];
}

def MemoptCollapseReductionDimsPass
    : Pass<"memopt-collapse-reduction-dims", "func::FuncOp"> {
  let summary = "Reduce over one dim where several adjacent reduced dims "
                "are contiguous in every operand";
  let description = [{
    A linalg.generic on tensors whose reduction loops include a run of
    adjacent dims that every indexing map keeps adjacent and in order (a
    sum over the two inner dims of a 3-D tensor; group-norm statistics over
    (C/G, H, W); NHWC batch-norm statistics over N, H, W) reduces over one
    collapsed dim instead, its operands reshaped by tensor.collapse_shape
    and its results expanded back (upstream collapseOpIterationDims), so
    that kernel formation sees the row or column reduction the program
    has in memory. A run that some operand does not index contiguously is
    left as it is, with a remark.
  }];
  let dependentDialects = ["linalg::LinalgDialect", "tensor::TensorDialect"];
}

def MemoptFoldPermutationCopiesPass
    : Pass<"memopt-fold-permutation-copies", "func::FuncOp"> {
  let summary = "Read a transposed copy's source in place of the copy";
  let description = [{
    A linalg.generic on tensors that copies its one input through a
    permutation (torch-mlir's k.transpose(-1, -2) before a batch_matmul,
    linalg.transpose once generalized) is folded into each linalg.generic
    that reads it as an input, when that reader's innermost loop then walks
    the source's contiguous dim or does not index it: the reader indexes
    the source through the composed map, and the copy (a write and a read
    of the whole tensor) goes when no reader is left. A reader that would
    walk the source across its contiguous dim keeps the copy, with a remark
    (the tile-transpose family stages it). Values are unchanged.
  }];
  let dependentDialects = ["linalg::LinalgDialect"];
}

def MemoptInterchangeReductionsPass
    : Pass<"memopt-interchange-reductions", "func::FuncOp"> {
  let summary = "Iterate a reduction in its largest input's layout order";
  let description = [{
    A linalg.generic on tensors whose innermost loop is a reduction and
    whose largest input, read by it alone through a projected permutation,
    is contiguous along a parallel loop (decode attention's p . V: a
    batch_matmul reducing over the tokens while V is contiguous along the
    head dim) iterates in that input's order, loops the input does not
    index outermost (upstream linalg::interchangeGenericOp), when every
    output is then still written in its layout order. Kernel formation
    then sees a column reduction ([outer parallel, reduced, inner
    parallel]: threads along the contiguous dim, wide loads) where it saw
    rows walked across memory. Exact: each output is the same sum in the
    same order. A largest input with other readers keeps the order, with a
    remark.
  }];
  let dependentDialects = ["linalg::LinalgDialect"];
}

def MemoptWidenRecordsPass
    : Pass<"memopt-widen-records", "func::FuncOp"> {
  let summary = "Iterate interleaved small records and their fields as one "
                "loop";
  let description = [{
    An all-parallel linalg.generic on tensors whose last loop walks the K
    fields of small records (2 <= K <= 16, a power of two: rotary pairs,
    complex numbers, RGBA) and whose loop before it walks the records,
    reading some operand at constant field indices (x[..., q, 0]) or once
    per record (a cos/sin table at q), iterates over records and fields as
    one loop of Q * K: record operands are collapsed, field c read at
    (e floordiv K) * K + c, per-record operands at e floordiv K, and
    linalg.index of the two loops recomputed. Values are unchanged. Kernel
    formation then gives a thread a vector of whole records, one aligned
    window serving every lane's read of a field or table (one 16-byte load
    instead of one narrow load per record and field). Ops reading records
    in another order keep one record per vector, with a remark.
  }];
  let dependentDialects = ["linalg::LinalgDialect", "tensor::TensorDialect",
                           "arith::ArithDialect"];
}

def MemoptSplitReductionsPass
    : Pass<"memopt-split-reductions", "func::FuncOp"> {
  let summary = "One generic per independent output of a multi-result "
                "reduction";
  let description = [{
    A linalg.generic on tensors with reduction loops and several outputs
    whose yielded values do not read each other's accumulators (a sum and a
    sum of squares; a max and a sum; LayerNorm backward's two row sums)
    becomes one generic per output, each with the part of the body it needs
    and the inputs that part reads. Kernel formation fuses reductions of one
    row space into one kernel that holds the row once; a multi-result
    reduction was a naive kernel. Outputs that read another output's
    accumulator (Welford) stay together, with a remark.
  }];
  let dependentDialects = ["linalg::LinalgDialect"];
}

def MemoptNarrowIntegerAccumulatorsPass
    : Pass<"memopt-narrow-integer-accumulators", "func::FuncOp"> {
  let summary = "Integer reductions accumulated in i32 where that is exact";
  let description = [{
    Kernels exchange partial results between threads in 32 bits. A
    single-output reduction on tensors with an i1, i8 or i16 accumulator
    (torch's any/all: ori/andi over i1) accumulates in i32, its values and
    constant initial value extended and its result truncated (exact for
    addi, muli, the bitwise ops and the comparisons, with the matching
    extension); one with an i64 accumulator (bool.sum(), a masked mean's
    count) does when it combines extensions of integers of 16 bits or
    fewer by addi, maxsi, minsi, maxui or minui and the initial value (and
    for addi its sum with extent x largest magnitude) fits in i32, its
    result extended back. A remark names each narrowed reduction and says
    why an i64 one is not.
  }];
  let dependentDialects = ["linalg::LinalgDialect", "arith::ArithDialect",
                           "tensor::TensorDialect"];
}

def MemoptArgReductionsPass
    : Pass<"memopt-arg-reductions", "func::FuncOp"> {
  let summary = "An arg-max or arg-min reduction as reductions with one "
                "combiner each";
  let description = [{
    A linalg.generic on tensors with one reduction loop and two outputs, a
    value and the index of the element that set it (torch-mlir's argmax and
    max.dim, tosa's argmax, argmin forms alike):

      %j = linalg.index R  (cast to the index output's type)
      %c = cmp(strict order, %x, %acc_v)   (ogt, olt; sgt, slt, ugt, ult;
           or tosa's NaN propagation: ugt/ult and an ordered %acc_v)
      %v = select(%c, %x, %acc_v) or max/min(%x, %acc_v)
      %i = select(%c, %j, %acc_i)

    where %x is computed from the inputs alone and both outputs start from
    constant fills, becomes single-output reductions whose combiners kernel
    formation knows: the extreme over the elements (NaN ignored, as the
    ordered compare ignores it), the first index holding it (a minimum over
    i32 candidates), and a scalar select of the initial index where no
    element beat the initial value. Where the value combiner propagates NaN
    (maximumf, minimumf) the index only follows the elements before the
    first NaN, so a reduction finds that position first and the others
    mask what follows it; under tosa's NaN propagation the first NaN wins
    the index. The value output keeps its own combiner, or, for the select
    form, is the element at the found index (picked exactly through its
    bits: an or-reduction of zero-extended bit patterns).
    Results are bit-exact; the reduction order changes, so the optimizing
    pipeline only. A two-output reduction that does not match says why in
    a remark.
  }];
  let dependentDialects = ["linalg::LinalgDialect", "arith::ArithDialect",
                           "tensor::TensorDialect"];
}

def MemoptCenterStatisticsPass
    : Pass<"memopt-center-statistics", "func::FuncOp"> {
  let summary = "Two-pass statistics over non-adjacent loops from one pass "
                "over the input (Chan's combination of partials)";
  let description = [{
    A sum `s` of v(x) and a later centred sum of squares `q` of the same
    v(x) about a value `m` per output point (`m` computed from `s`: a
    batch-norm training variance over N, H and W of NCHW), both over the
    same reduced loops that no reshape makes adjacent, fill-seeded with
    zero and accumulated in f32 or f64, read x once per statistic. Here
    the largest reduced loop k is reduced first, per point of the other
    loops, into s_p = sum v, q_p = sum (v - s_p/K)^2 and e_p =
    sum (v - s_p/K) (one pass over x; one row kernel when k is the
    contiguous loop); then s = sum s_p and q = sum [q_p + 2 t e_p +
    K t^2] with t = s_p/K - m over the other reduced loops (an identity
    for any m; partial sums centred on their own means, as Chan, Golub
    and LeVeque combine them). A remark says what was combined; a centred
    sum of squares over such loops that does not match says why.
    Before that, Welford's recurrence written as one reduction with three
    outputs (count, mean, M2, each update reading the others'
    accumulators), all three starting at zero, becomes its count (the
    reduced extent), the mean of a sum and the centred sum of squares
    about it: the two-pass form, at least as accurate, that row kernels
    hold in one pass. It reassociates, so only the optimizing pipeline
    runs it.
  }];
  let dependentDialects = ["linalg::LinalgDialect", "tensor::TensorDialect",
                           "arith::ArithDialect"];
}

def MemoptStageReductionsPass
    : Pass<"memopt-stage-reductions", "func::FuncOp"> {
  let summary = "A chain of one-loop reductions where the reduced loops "
                "are not adjacent";
  let description = [{
    A single-output linalg.generic on static tensors whose reduction loops
    are not one run of adjacent loops (NCHW batch-norm statistics over N,
    H and W; a sum over the first and last dims), its body
    `comb(acc, f(inputs))` with an associative, commutative combiner,
    becomes two generics: the first reduces the reduced loop of largest
    extent (the smallest partial one loop gives), through the op's body,
    into a partial indexed by every other loop and seeded with the
    combiner's identity; the second combines the partial over the other
    reduced loops into the original output, and is staged again while its
    reduced loops are not adjacent. Each stage then has one reduced loop:
    a row reduction or one with parallel loops inside it. A remark gives
    the loop staged and the partial's size; a reduction it cannot stage
    says why. It reassociates the reduction, so only the optimizing
    pipeline runs it.
  }];
  let dependentDialects = ["linalg::LinalgDialect", "tensor::TensorDialect",
                           "arith::ArithDialect"];
}

def MemoptRecomputeProducersPass
    : Pass<"memopt-recompute-producers", "func::FuncOp"> {
  let summary = "Recompute cheap elementwise producers inside reductions "
                "that have a parallel loop inside the reduced one";
  let description = [{
    A linalg.generic on tensors reducing a loop with a parallel loop inside
    it (a column reduction; the sum of exponentials of a softmax over dim
    0) is a kernel of its own, so an elementwise producer of one of its
    inputs would be written and read back. When the producer is one
    linalg.generic of at most 16 body ops, without loop indices, and reads
    at most one full-size input no wider than its result (or any number
    when the reduction is its only user), its body is
    inlined into the reduction, which then reads the producer's inputs;
    the producer stays for its other users and is erased when it has none.
    A remark on the reduction says which inputs were recomputed and why
    others stay materialized. The values are the same (the same ops in the
    same types); only the optimizing pipeline runs it.
  }];
  let dependentDialects = ["linalg::LinalgDialect"];
}

def MemoptApproximateMathPass
    : Pass<"memopt-approximate-math", "func::FuncOp"> {
  let summary = "Mark f32 math whose result is only seen in 16 bits for the "
                "GPU's approximate instructions (the afn fast-math flag)";
  let description = [{
    An f32 `math.tanh` inside a linalg.generic whose result, and every
    value computed from it in the body, leaves the body only through an
    `arith.truncf` to a float of at most 16 bits (bf16 + GELU computed in
    f32) gets the `afn` fast-math flag. memopt-lower-gpu-math then divides
    by the reciprocal from `rcp.approx` in place of a correctly rounded
    division: the tanh stays within 2^-19 of the exact value, far below
    half an ulp of a bf16 (2^-9) or f16 (2^-11) result, as the exhaustive
    accuracy run checks (bench/accuracy). Where the result is observed at
    its own precision (yielded in f32, compared, accumulated), a remark
    says so and the op is left alone. `tanh.approx.f32` itself (2^-11
    relative error) is not used: after GELU's 1 + tanh(u) near u = -2 it
    costs several bf16 ulps. Only the optimizing pipeline runs it, and its
    option `approximate-math=false` turns it off.
  }];
  let dependentDialects = ["math::MathDialect"];
}

def MemoptPairwiseReductionsPass
    : Pass<"memopt-pairwise-reductions", "func::FuncOp"> {
  let summary = "Evaluate float reductions in a pairwise order, in the "
                "program's precision";
  let description = [{
    For the pairwise CPU reference (built with the literal and the f64 ones
    by memopt-compile --pipeline=reference): after the input stage, every
    linalg.generic on static tensors whose reduction outputs are
    `comb(acc, v)` (comb one of arith.addf, mulf, maximumf, minimumf,
    maxnumf, minnumf; acc used only there) computes the values `v` over
    the whole iteration space, combines each reduced dim by halving levels
    (elements 2j and 2j + 1, an odd last element into the first), and
    combines the result with the init through the original output maps.
    The types are the program's: only the order of the combination
    changes. Its distance from the f64 reference is the accuracy a
    reassociated evaluation of the program in its own precision has, which
    is what the verdicts scale their bound from. A float reduction it
    cannot rewrite keeps its order, with a remark saying why (a contraction,
    whose iteration space is larger than any operand, among them); integer
    reductions are exact in any order and are left alone.
  }];
  let dependentDialects = ["linalg::LinalgDialect", "tensor::TensorDialect",
                           "arith::ArithDialect"];
}

def MemoptPerturbRoundingPass
    : Pass<"memopt-perturb-rounding", "ModuleOp"> {
  let summary = "Perturb every rounding of a tensor-level function by a "
                "seeded random amount (Monte Carlo arithmetic)";
  let description = [{
    For the perturbed CPU reference (built with the literal, f64 and
    pairwise ones by memopt-compile --pipeline=reference): after the input
    stage and memopt-pairwise-reductions, the result r of every rounding float operation in the bodies of
    the linalg.generic ops of each function (arith.addf, subf, mulf, divf,
    remf, truncf, sitofp, uitofp and the math dialect's functions but
    absf, copysign, floor, ceil, round, roundeven and trunc) of type f16,
    bf16 or f32 becomes r * (1 + u * xi) computed in f64 and rounded back,
    u the type's unit roundoff and xi in [-1, 1) a hash of the seed, the
    operation's position in the module, r's bits and the generic's loop
    indices. The seed is the public i64 global `memopt_rounding_seed`,
    which the runtime sets before each evaluation (0 leaves every
    operation as it is). The spread of several evaluations around the f64
    reference is the program's own sensitivity to its roundings, in any
    order of its reductions; the verdicts take it as the uncertainty where
    the pairwise evaluation's is smaller than what a correct
    reassociation gives (sums that cancel).
  }];
  let dependentDialects = ["linalg::LinalgDialect", "arith::ArithDialect",
                           "memref::MemRefDialect"];
}

def MemoptAosToSoaPass : Pass<"memopt-aos-to-soa", "ModuleOp"> {
  let summary = "Split array-of-records function arguments read at a few "
                "constant fields into one array per field";
  let description = [{
    A public function's argument `tensor<N x F x T>` (F a small static
    record size) whose every use is a `linalg.generic` input indexed with a
    constant last index is an array of records read at some fields. When the
    traffic model says the fields alone move fewer DRAM sectors than the
    records, the argument is replaced by one `tensor<N x T>` argument per
    used field, and every access is rewritten together:

    ```mlir
    func.func @f(%p: tensor<1024x8xf32>) ... ins(%p, %p : ...) maps (d0)->(d0,3), (d0)->(d0,6)
    // becomes
    func.func @f(%p3: tensor<1024xf32> {memopt.aos_field = {source = 0, record = 8, field = 3}},
                 %p6: tensor<1024xf32> {memopt.aos_field = {source = 0, record = 8, field = 6}})
    ```

    The `memopt.aos_field` attributes tell the launch manifest (and through
    it the runtime, which converts host data once on upload) where each new
    argument comes from. With `keep-signature`, the signature stays and the
    fields are extracted inside the function instead (for callers that
    cannot change; after fusion this costs the AoS traffic again). Arguments
    left alone get a remark saying why (all fields used, a dynamic or
    non-constant field index, another kind of use).

    Intermediates: a record array produced inside the function by a
    `linalg.generic` over the records (identity output map, the record as its
    last parallel loop, fields possibly computed differently through
    `linalg.index` and `arith.select`) and read only as generic inputs at
    constant fields becomes one tensor per used field. The producer is
    rewritten with its record loop fixed per field (one output per field,
    each computing only what its field needs) and fields nobody reads are
    never computed. Refused with a remark on a field chosen at run time, a
    view of the records (`tensor.extract_slice`, reshapes, casts), a use by
    another op, a producer of another form, or records over
    `max-record-fields`.

    Results: a record-array result whose producer computes fields by the
    record index is split when the traffic model says so: fields that are
    plain copies of a field of an argument record are left to the host, so
    the kernel reads and writes only the computed fields. The function then
    returns one tensor per computed field, each with a result attribute
    `memopt.aos_field = {source = <result>, record, field}`, and the copies
    are listed in the function attribute `memopt.aos_pass_through`; the
    runtime scatters the fields back into the host record array on download.
    With `keep-signature` the result stays and a pack generic rebuilds the
    records (which writes them whole again). A result whose every field is
    computed is kept with a remark: writing whole records is already
    contiguous.
  }];
  let options = [
    Option<"keepSignature", "keep-signature", "bool", "false",
           "Keep the signature and extract fields inside the function">,
    Option<"maxRecordFields", "max-record-fields", "unsigned", "16",
           "Largest record (innermost dimension) considered">,
    Option<"sectorBytes", "sector-bytes", "unsigned", "32",
           "DRAM access granularity of the target in bytes">
  ];
  let dependentDialects = ["linalg::LinalgDialect", "tensor::TensorDialect"];
  let statistics = [
    Statistic<"numConverted", "num-converted", "Arguments split into fields">
  ];
}

#endif // MEMOPT_TRANSFORMS_PASSES_TD
