// RUN: memopt-opt %s --split-input-file -verify-diagnostics --test-memopt-print-traffic

// A copy of 1024 floats reads and writes 4096 bytes each.
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-remark @+1 {{traffic: read 4096 B, written 4096 B}}
    gpu.func @copy(%a: memref<1024xf32>, %o: memref<1024xf32>) kernel {
      %b = gpu.block_id x
      %t = gpu.thread_id x
      %c256 = arith.constant 256 : index
      %o0 = arith.muli %b, %c256 : index
      %i = arith.addi %o0, %t : index
      %v = memref.load %a[%i] : memref<1024xf32>
      memref.store %v, %o[%i] : memref<1024xf32>
      gpu.return
    }
  }
}

// -----

// AoS records of 8 floats (32 B, one sector) read at constant field 3: every
// sector is touched, so all 32768 bytes are read.
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-remark @+1 {{traffic: read 32768 B, written 4096 B}}
    gpu.func @aos_one_field(%p: memref<1024x8xf32>, %o: memref<1024xf32>) kernel {
      %b = gpu.block_id x
      %t = gpu.thread_id x
      %c256 = arith.constant 256 : index
      %c3 = arith.constant 3 : index
      %o0 = arith.muli %b, %c256 : index
      %i = arith.addi %o0, %t : index
      %v = memref.load %p[%i, %c3] : memref<1024x8xf32>
      memref.store %v, %o[%i] : memref<1024xf32>
      gpu.return
    }
  }
}

// -----

// Records of 16 floats (64 B, two sectors) read at fields 0 and 1 only: one
// sector of two per record, 1024 * 32 = 32768 bytes.
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-remark @+1 {{traffic: read 32768 B, written 4096 B}}
    gpu.func @aos_first_sector(%p: memref<1024x16xf32>, %o: memref<1024xf32>) kernel {
      %b = gpu.block_id x
      %t = gpu.thread_id x
      %c256 = arith.constant 256 : index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %o0 = arith.muli %b, %c256 : index
      %i = arith.addi %o0, %t : index
      %x = memref.load %p[%i, %c0] : memref<1024x16xf32>
      %y = memref.load %p[%i, %c1] : memref<1024x16xf32>
      %s = arith.addf %x, %y : f32
      memref.store %s, %o[%i] : memref<1024xf32>
      gpu.return
    }
  }
}

// -----

// Fields 2 and 9 of a 64-byte record lie in different sectors: both are read.
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-remark @+1 {{traffic: read 65536 B, written 4096 B}}
    gpu.func @aos_two_sectors(%p: memref<1024x16xf32>, %o: memref<1024xf32>) kernel {
      %b = gpu.block_id x
      %t = gpu.thread_id x
      %c256 = arith.constant 256 : index
      %c2 = arith.constant 2 : index
      %c9 = arith.constant 9 : index
      %o0 = arith.muli %b, %c256 : index
      %i = arith.addi %o0, %t : index
      %x = memref.load %p[%i, %c2] : memref<1024x16xf32>
      %y = memref.load %p[%i, %c9] : memref<1024x16xf32>
      %s = arith.addf %x, %y : f32
      memref.store %s, %o[%i] : memref<1024xf32>
      gpu.return
    }
  }
}

// -----

// Workgroup memory is not DRAM traffic.
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-remark @+1 {{traffic: read 4096 B, written 4096 B}}
    gpu.func @staged(%a: memref<1024xf32>, %o: memref<1024xf32>) workgroup(%s : memref<256xf32, #gpu.address_space<workgroup>>) kernel {
      %b = gpu.block_id x
      %t = gpu.thread_id x
      %c256 = arith.constant 256 : index
      %o0 = arith.muli %b, %c256 : index
      %i = arith.addi %o0, %t : index
      %v = memref.load %a[%i] : memref<1024xf32>
      memref.store %v, %s[%t] : memref<256xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %w = memref.load %s[%t] : memref<256xf32, #gpu.address_space<workgroup>>
      memref.store %w, %o[%i] : memref<1024xf32>
      gpu.return
    }
  }
}

// -----

// A buffer read twice is counted once; a 2-D f16 buffer counts 2 B per element.
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-remark @+1 {{traffic: read 2048 B, written 2048 B}}
    gpu.func @read_twice_f16(%a: memref<32x32xf16>, %o: memref<32x32xf16>) kernel {
      %r = gpu.block_id x
      %c = gpu.thread_id x
      %v = memref.load %a[%r, %c] : memref<32x32xf16>
      %w = memref.load %a[%r, %c] : memref<32x32xf16>
      %s = arith.addf %v, %w : f16
      memref.store %s, %o[%r, %c] : memref<32x32xf16>
      gpu.return
    }
  }
}

// -----

// Vector accesses count like scalar ones.
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-remark @+1 {{traffic: read 4096 B, written 4096 B}}
    gpu.func @vector_copy(%a: memref<1024xf32>, %o: memref<1024xf32>) kernel {
      %t = gpu.thread_id x
      %c4 = arith.constant 4 : index
      %i = arith.muli %t, %c4 : index
      %v = vector.load %a[%i] : memref<1024xf32>, vector<4xf32>
      vector.store %v, %o[%i] : memref<1024xf32>, vector<4xf32>
      gpu.return
    }
  }
}
