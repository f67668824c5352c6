// The one place listd-bench meets the C library and the OS's process accounting (/proc on Linux, Mach and libproc on Darwin).
import Foundation
import JSONRPC

#if canImport(Glibc)
  /// A field of /proc/PID/status (`"self"` for this process) as a number: its first integer.
  private func statusField(_ name: String, of pid: String) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") })
    else { return nil }
    return line.split(whereSeparator: { $0 == " " || $0 == "\t" }).compactMap { Int($0) }.first
  }
#else
  /// libproc's task information of a process (Darwin's proc_pidinfo(PROC_PIDTASKINFO)).
  private func taskInfo(of pid: String) -> proc_taskinfo? {
    let id = pid == "self" ? getpid() : Int32(pid) ?? -1
    var info = proc_taskinfo()
    let size = Int32(MemoryLayout<proc_taskinfo>.size)
    guard proc_pidinfo(id, PROC_PIDTASKINFO, 0, &info, size) == size else { return nil }
    return info
  }

  /// libproc's resource usage of a process (Darwin's proc_pid_rusage(RUSAGE_INFO_V2)).
  private func resourceUsage(of pid: String) -> rusage_info_v2? {
    let id = pid == "self" ? getpid() : Int32(pid) ?? -1
    var info = rusage_info_v2()
    let status = withUnsafeMutablePointer(to: &info) {
      $0.withMemoryRebound(to: rusage_info_t?.self, capacity: 1) { proc_pid_rusage(id, RUSAGE_INFO_V2, $0) }
    }
    return status == 0 ? info : nil
  }

  /// Mach absolute time units (what libproc's CPU times count) in nanoseconds.
  private let nanosecondsPerTick: Double = {
    var timebase = mach_timebase_info_data_t()
    mach_timebase_info(&timebase)
    return Double(timebase.numer) / Double(timebase.denom)
  }()
#endif

/// Resident set size in bytes of a process (`"self"` for this one).
/// Linux: VmRSS of /proc/PID/status. Darwin: `task_info(MACH_TASK_BASIC_INFO)` for this
/// process, libproc's `pti_resident_size` for another.
func residentSetSize(of pid: String) -> Int {
  #if canImport(Glibc)
    return (statusField("VmRSS", of: pid) ?? 0) * 1024
  #else
    if pid == "self" {
      var info = mach_task_basic_info()
      var count = mach_msg_type_number_t(
        MemoryLayout<mach_task_basic_info>.size / MemoryLayout<natural_t>.size)
      let status = withUnsafeMutablePointer(to: &info) {
        $0.withMemoryRebound(to: integer_t.self, capacity: Int(count)) {
          task_info(mach_task_self_, task_flavor_t(MACH_TASK_BASIC_INFO), $0, &count)
        }
      }
      return status == KERN_SUCCESS ? Int(info.resident_size) : 0
    }
    return taskInfo(of: pid).map { Int($0.pti_resident_size) } ?? 0
  #endif
}

/// Peak resident set size in bytes of a process. Linux: VmHWM of /proc/PID/status. Darwin:
/// the lifetime peak of its physical footprint (libproc's rusage; the nearest Darwin keeps).
func peakResidentSetSize(of pid: String) -> Int {
  #if canImport(Glibc)
    return (statusField("VmHWM", of: pid) ?? 0) * 1024
  #else
    return resourceUsage(of: pid).map { Int($0.ri_lifetime_max_phys_footprint) } ?? 0
  #endif
}

/// CPU time (user + system) a process has used, in seconds. Linux: /proc/PID/stat (10 ms
/// resolution). Darwin: libproc's task information.
func cpuSeconds(of pid: String) -> Double {
  #if canImport(Glibc)
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return 0 }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    // After the command: state is field 3, utime 14 and stime 15 (1-based over the whole line).
    guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
  #else
    guard let info = taskInfo(of: pid) else { return 0 }
    return Double(info.pti_total_user + info.pti_total_system) * nanosecondsPerTick / 1e9
  #endif
}

/// The number of threads of a process.
func threadCount(of pid: String) -> Int {
  #if canImport(Glibc)
    return statusField("Threads", of: pid) ?? 0
  #else
    return taskInfo(of: pid).map { Int($0.pti_threadnum) } ?? 0
  #endif
}

/// The number of open descriptors of a process. Linux: /proc/PID/fd. Darwin: libproc's
/// proc_pidinfo(PROC_PIDLISTFDS).
func descriptorCount(of pid: String) -> Int {
  #if canImport(Glibc)
    return (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? 0
  #else
    let id = pid == "self" ? getpid() : Int32(pid) ?? -1
    let bytes = proc_pidinfo(id, PROC_PIDLISTFDS, 0, nil, 0)
    return bytes > 0 ? Int(bytes) / MemoryLayout<proc_fdinfo>.size : 0
  #endif
}

/// The path of this executable. Linux: /proc/self/exe. Darwin: `_NSGetExecutablePath` (dyld(3)).
func executablePath() -> String {
  #if canImport(Glibc)
    return (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments[0]
  #else
    var size: UInt32 = 0
    _ = _NSGetExecutablePath(nil, &size)
    var buffer = [CChar](repeating: 0, count: Int(size) + 1)
    guard _NSGetExecutablePath(&buffer, &size) == 0 else { return CommandLine.arguments[0] }
    return String(cString: buffer)
  #endif
}
