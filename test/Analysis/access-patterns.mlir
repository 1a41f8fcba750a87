// RUN: memopt-opt %s --split-input-file -verify-diagnostics --test-memopt-print-access-patterns

// Global accesses of hand-written kernels: coalesced f32 (100%), stride 2
// (50%), one field of a 24-byte record (16.7%), float4 rows (100%), a
// broadcast, a transposed store, an unaligned base.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @global(%a: memref<4096xf32>, %s: memref<8192xf32>,
                     %rec: memref<1024x6xf32>, %v: memref<1024x4xf32>,
                     %t: memref<256x1024xf32>, %o: memref<4096xf32>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %bx = gpu.block_id x
      %tx = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c256 = arith.constant 256 : index
      %base = arith.muli %bx, %c256 : index
      %i = arith.addi %base, %tx : index
      // expected-remark @+1 {{global read of 4 B per lane: 4 sectors for 128 useful bytes (100.0% sector efficiency); contiguous, address divisible by 4 B}}
      %x = memref.load %a[%i] : memref<4096xf32>
      %i2 = arith.muli %i, %c2 : index
      // expected-remark @+1 {{global read of 4 B per lane: 8 sectors for 128 useful bytes (50.0% sector efficiency); not contiguous, address divisible by 8 B}}
      %y = memref.load %s[%i2] : memref<8192xf32>
      // expected-remark @+1 {{global read of 4 B per lane: 24 sectors for 128 useful bytes (16.7% sector efficiency); not contiguous}}
      %z = memref.load %rec[%i, %c2] : memref<1024x6xf32>
      // expected-remark @+1 {{global read of 16 B per lane: 16 sectors for 512 useful bytes (100.0% sector efficiency); contiguous, address divisible by 16 B}}
      %w = vector.load %v[%i, %c0] : memref<1024x4xf32>, vector<4xf32>
      // expected-remark @+1 {{global read of 4 B per lane: 1 sectors for 4 useful bytes (12.5% sector efficiency)}}
      %b = memref.load %a[%bx] : memref<4096xf32>
      // expected-remark @+1 {{global write of 4 B per lane: 32 sectors for 128 useful bytes (12.5% sector efficiency); not contiguous, address divisible by 4 B}}
      memref.store %x, %t[%tx, %bx] : memref<256x1024xf32>
      %j0 = arith.muli %bx, %c3 : index
      %j = arith.addi %j0, %tx : index
      // A base that is only a multiple of 12 bytes: worst case 5 sectors.
      // expected-remark @+1 {{global write of 4 B per lane: 5 sectors for 128 useful bytes (80.0% sector efficiency); contiguous}}
      memref.store %y, %o[%j] : memref<4096xf32>
      gpu.return
    }
  }
}

// -----

// A tail: a block of 16 threads uses half a warp; lanes clamped by a select
// take their in-bounds value.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @tail(%a: memref<1000xf32>, %o: memref<1000xf32>) kernel
        attributes {known_block_size = array<i32: 16, 1, 1>} {
      %bx = gpu.block_id x
      %tx = gpu.thread_id x
      %c16 = arith.constant 16 : index
      %c999 = arith.constant 999 : index
      %base = arith.muli %bx, %c16 : index
      %i = arith.addi %base, %tx : index
      %ok = arith.cmpi ult, %i, %c999 : index
      %ic = arith.select %ok, %i, %c999 : index
      // expected-remark @+1 {{global read of 4 B per lane: 2 sectors for 64 useful bytes (100.0% sector efficiency); contiguous}}
      %x = memref.load %a[%ic] : memref<1000xf32>
      %im = arith.minui %i, %c999 : index
      // expected-remark @+1 {{global write of 4 B per lane: 2 sectors for 64 useful bytes (100.0% sector efficiency); contiguous}}
      memref.store %x, %o[%im] : memref<1000xf32>
      gpu.return
    }
  }
}

// -----

// Bank conflicts of 4-byte accesses: a 32x32 f32 tile read by column is
// 32-way, 32x33 (padded) and XOR-swizzled tiles are conflict-free; rows and
// broadcasts are conflict-free.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @banks4(%o: memref<32x32xf32>) kernel
        attributes {known_block_size = array<i32: 32, 8, 1>} {
      %naive = memref.alloca() : memref<32x32xf32, #gpu.address_space<workgroup>>
      %pad = memref.alloca() : memref<32x33xf32, #gpu.address_space<workgroup>>
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %c0 = arith.constant 0 : index
      // expected-remark @+1 {{shared read of 4 B per lane: conflict-free (1 wavefronts, ideal 1); contiguous}}
      %r = memref.load %naive[%ty, %tx] : memref<32x32xf32, #gpu.address_space<workgroup>>
      // expected-remark @+1 {{shared read of 4 B per lane: 32-way bank conflict (32 wavefronts, ideal 1); not contiguous}}
      %c = memref.load %naive[%tx, %ty] : memref<32x32xf32, #gpu.address_space<workgroup>>
      // expected-remark @+1 {{shared read of 4 B per lane: conflict-free (1 wavefronts, ideal 1); not contiguous}}
      %p = memref.load %pad[%tx, %ty] : memref<32x33xf32, #gpu.address_space<workgroup>>
      %sw = arith.xori %ty, %tx : index
      // expected-remark @+1 {{shared read of 4 B per lane: conflict-free (1 wavefronts, ideal 1); not contiguous}}
      %s = memref.load %naive[%tx, %sw] : memref<32x32xf32, #gpu.address_space<workgroup>>
      // expected-remark @+1 {{shared read of 4 B per lane: conflict-free (1 wavefronts, ideal 1)}}
      %b = memref.load %naive[%c0, %c0] : memref<32x32xf32, #gpu.address_space<workgroup>>
      %s1 = arith.addf %r, %c : f32
      %s2 = arith.addf %p, %s : f32
      %s3 = arith.addf %s1, %s2 : f32
      %s4 = arith.addf %s3, %b : f32
      // expected-remark @+1 {{global write}}
      memref.store %s4, %o[%ty, %tx] : memref<32x32xf32>
      gpu.return
    }
  }
}

// -----

// 8-byte accesses go in two phases of 16 lanes, 16-byte accesses in four
// phases of 8 lanes: a column of f64 is 16-way per phase, padded by one
// element it is conflict-free; a column of float4 chunks is 8-way, padded by
// one float4 conflict-free; a 16-byte XOR swizzle of the chunk index too.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @banks8and16(%o: memref<32xf64>, %o4: memref<32x4xf32>) kernel
        attributes {known_block_size = array<i32: 32, 1, 1>} {
      %d = memref.alloca() : memref<32x32xf64, #gpu.address_space<workgroup>>
      %dp = memref.alloca() : memref<32x33xf64, #gpu.address_space<workgroup>>
      %q = memref.alloca() : memref<32x128xf32, #gpu.address_space<workgroup>>
      %qp = memref.alloca() : memref<32x132xf32, #gpu.address_space<workgroup>>
      %tx = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c7 = arith.constant 7 : index
      // expected-remark @+1 {{shared read of 8 B per lane: 16-way bank conflict (32 wavefronts, ideal 2); not contiguous}}
      %x = memref.load %d[%tx, %c0] : memref<32x32xf64, #gpu.address_space<workgroup>>
      // expected-remark @+1 {{shared read of 8 B per lane: conflict-free (2 wavefronts, ideal 2); not contiguous}}
      %y = memref.load %dp[%tx, %c0] : memref<32x33xf64, #gpu.address_space<workgroup>>
      %s = arith.addf %x, %y : f64
      // expected-remark @+1 {{global write}}
      memref.store %s, %o[%tx] : memref<32xf64>
      // expected-remark @+1 {{shared read of 16 B per lane: 8-way bank conflict (32 wavefronts, ideal 4); not contiguous, address divisible by 256 B}}
      %v = vector.load %q[%tx, %c0] : memref<32x128xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      // expected-remark @+1 {{shared read of 16 B per lane: conflict-free (4 wavefronts, ideal 4); not contiguous, address divisible by 16 B}}
      %w = vector.load %qp[%tx, %c0] : memref<32x132xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      %chunk = arith.andi %tx, %c7 : index
      %col = arith.muli %chunk, %c4 : index
      // expected-remark @+1 {{shared read of 16 B per lane: conflict-free (4 wavefronts, ideal 4); not contiguous, address divisible by 16 B}}
      %u = vector.load %q[%tx, %col] : memref<32x128xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      %s4 = arith.addf %v, %w : vector<4xf32>
      %s5 = arith.addf %s4, %u : vector<4xf32>
      // expected-remark @+1 {{global write of 16 B per lane}}
      vector.store %s5, %o4[%tx, %c0] : memref<32x4xf32>, vector<4xf32>
      gpu.return
    }
  }
}

// -----

// What the model cannot see says so.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @unknown(%idx: memref<256xindex>, %a: memref<4096xf32>, %o: memref<256xf32>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %tx = gpu.thread_id x
      // expected-remark @+1 {{global read of 8 B per lane}}
      %j = memref.load %idx[%tx] : memref<256xindex>
      // expected-remark @+1 {{access pattern unknown: index loaded from memory}}
      %x = memref.load %a[%j] : memref<4096xf32>
      %t2 = arith.muli %tx, %tx : index
      // expected-remark @+1 {{access pattern unknown: product of a lane-varying value and a non-constant}}
      %y = memref.load %a[%t2] : memref<4096xf32>
      %s = arith.addf %x, %y : f32
      // expected-remark @+1 {{global write of 4 B per lane}}
      memref.store %s, %o[%tx] : memref<256xf32>
      gpu.return
    }
  }
}
