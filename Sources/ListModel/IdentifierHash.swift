// A fast keyed hash of an id's UTF-8 bytes (wyhash-style), keyed per process from the system's random source.

/// The key of ``IdentifierHash``: a seed and four secrets. Every table of a process uses
/// ``process``, drawn once from the system's random source, so ids crafted to collide under a
/// known key (for example ``fixed``) spread over the table like any others.
struct IdentifierHashKey: Sendable {
  var seed: UInt64
  var secret: (UInt64, UInt64, UInt64, UInt64)

  /// This process's key, from `SystemRandomNumberGenerator` (getrandom on Linux). Secrets are
  /// odd so no multiplier is even by chance.
  static let process: IdentifierHashKey = {
    var random = SystemRandomNumberGenerator()
    return IdentifierHashKey(
      seed: random.next(),
      secret: (random.next() | 1, random.next() | 1, random.next() | 1, random.next() | 1))
  }()

  /// A key anyone knows: the unkeyed variant, for tests that craft colliding ids.
  static let fixed = IdentifierHashKey(
    seed: 0,
    secret: (0xa076_1d64_78bd_642f, 0x3736_3534_3332_3130, 0x8ebc_6af0_9c88_c6e3, 0x5899_65cc_7537_4cc3))
}

/// wyhash's structure (128-bit multiply-and-fold over 16-byte blocks, three lanes beyond 48
/// bytes): about 1 ns per 8 bytes, one pass, no allocation.
enum IdentifierHash {
  @inline(__always) static func mix(_ a: UInt64, _ b: UInt64) -> UInt64 {
    let product = a.multipliedFullWidth(by: b)
    return product.high ^ product.low
  }

  /// The hash of `bytes` under `key`. O(bytes).
  @inline(__always)
  static func hash(_ bytes: UnsafeRawBufferPointer, key: IdentifierHashKey) -> UInt64 {
    let count = bytes.count
    let secret = key.secret
    var seed = key.seed ^ mix(key.seed ^ secret.0, secret.1)
    var a: UInt64 = 0
    var b: UInt64 = 0
    guard let base = bytes.baseAddress else { return mix(secret.1 ^ seed, secret.0) }
    @inline(__always) func read8(_ offset: Int) -> UInt64 {
      UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
    @inline(__always) func read4(_ offset: Int) -> UInt64 {
      UInt64(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
    }
    if count <= 16 {
      if count >= 4 {
        let shift = (count >> 3) << 2
        a = (read4(0) << 32) | read4(shift)
        b = (read4(count - 4) << 32) | read4(count - 4 - shift)
      } else if count > 0 {
        let bytes = base.assumingMemoryBound(to: UInt8.self)
        a = (UInt64(bytes[0]) << 16) | (UInt64(bytes[count >> 1]) << 8) | UInt64(bytes[count - 1])
      }
    } else {
      var remaining = count
      var offset = 0
      if remaining > 48 {
        var lane1 = seed
        var lane2 = seed
        repeat {
          seed = mix(read8(offset) ^ secret.1, read8(offset + 8) ^ seed)
          lane1 = mix(read8(offset + 16) ^ secret.2, read8(offset + 24) ^ lane1)
          lane2 = mix(read8(offset + 32) ^ secret.3, read8(offset + 40) ^ lane2)
          offset += 48
          remaining -= 48
        } while remaining > 48
        seed ^= lane1 ^ lane2
      }
      while remaining > 16 {
        seed = mix(read8(offset) ^ secret.1, read8(offset + 8) ^ seed)
        offset += 16
        remaining -= 16
      }
      a = read8(offset + remaining - 16)
      b = read8(offset + remaining - 8)
    }
    let product = (a ^ secret.1).multipliedFullWidth(by: b ^ seed)
    return mix(product.low ^ secret.0 ^ UInt64(count), product.high ^ secret.1)
  }
}
