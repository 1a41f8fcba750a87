// RUN: memopt-opt %s --split-input-file -verify-diagnostics --memopt-bank-fix

// A stride of two rows: padding by one element and the swizzle both leave
// 2-way conflicts; nothing is changed.
gpu.module @m {
  // expected-remark @+1 {{bank conflicts (32-way) not repaired: padding: leaves a 2-way conflict at memref.load; swizzle: leaves a 2-way conflict at memref.load}}
  gpu.func @two_rows(%o: memref<32xf32>)
      workgroup(%tile : memref<64x32xf32, #gpu.address_space<workgroup>>) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    %tx = gpu.thread_id x
    %c2 = arith.constant 2 : index
    %c0 = arith.constant 0 : index
    %r = arith.muli %tx, %c2 : index
    %x = memref.load %tile[%r, %c0] : memref<64x32xf32, #gpu.address_space<workgroup>>
    memref.store %x, %o[%tx] : memref<32xf32>
    gpu.return
  }
}

// -----

// A rank-1 buffer has no row to pad or swizzle with.
gpu.module @m {
  gpu.func @flat(%o: memref<32xf32>) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    // expected-remark @+1 {{bank conflicts (32-way) not repaired: needs a statically shaped buffer of rank >= 2 with the identity layout}}
    %t = memref.alloca() : memref<1024xf32, #gpu.address_space<workgroup>>
    %tx = gpu.thread_id x
    %c32 = arith.constant 32 : index
    %i = arith.muli %tx, %c32 : index
    %x = memref.load %t[%i] : memref<1024xf32, #gpu.address_space<workgroup>>
    memref.store %x, %o[%tx] : memref<32xf32>
    gpu.return
  }
}

// -----

// A buffer seen through a view is not changed.
gpu.module @m {
  gpu.func @viewed(%o: memref<32xf32>) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    // expected-remark @+1 {{bank conflicts not checked for this workgroup buffer: the buffer is used by memref.collapse_shape, not only loaded and stored}}
    %t = memref.alloca() : memref<32x32xf32, #gpu.address_space<workgroup>>
    %f = memref.collapse_shape %t [[0, 1]] : memref<32x32xf32, #gpu.address_space<workgroup>> into memref<1024xf32, #gpu.address_space<workgroup>>
    %tx = gpu.thread_id x
    %x = memref.load %f[%tx] : memref<1024xf32, #gpu.address_space<workgroup>>
    memref.store %x, %o[%tx] : memref<32xf32>
    gpu.return
  }
}

// -----

// An index the model cannot evaluate.
gpu.module @m {
  gpu.func @indirect(%idx: memref<32xindex>, %o: memref<32xf32>) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    // expected-remark @+1 {{bank conflicts not checked for this workgroup buffer: cannot model an access: index loaded from memory}}
    %t = memref.alloca() : memref<32x32xf32, #gpu.address_space<workgroup>>
    %tx = gpu.thread_id x
    %c0 = arith.constant 0 : index
    %j = memref.load %idx[%tx] : memref<32xindex>
    %x = memref.load %t[%j, %c0] : memref<32x32xf32, #gpu.address_space<workgroup>>
    memref.store %x, %o[%tx] : memref<32xf32>
    gpu.return
  }
}

// -----

// Padding would exceed the shared-memory budget and 48 floats per row are
// not a power-of-two number of chunks for the swizzle.
gpu.module @m {
  gpu.func @big(%o: memref<32xf32>) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    // expected-remark @+1 {{bank conflicts (32-way) not repaired: padding: the padded buffer (50176 B) exceeds the shared-memory budget; swizzle: the row is not a power-of-two number of 4-byte chunks}}
    %t = memref.alloca() : memref<256x48xf32, #gpu.address_space<workgroup>>
    %tx = gpu.thread_id x
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %r = arith.muli %tx, %c2 : index
    %x = memref.load %t[%r, %c0] : memref<256x48xf32, #gpu.address_space<workgroup>>
    memref.store %x, %o[%tx] : memref<32xf32>
    gpu.return
  }
}

