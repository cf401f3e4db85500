import Glibc

/// A pthread mutex with a condition: streams and connections use it so one reader and one writer
/// thread can share them, and one thread can wait for a state another thread sets.
@_spi(Engine) public final class TransportLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    @_spi(Engine) public init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deinitialize(count: 1)
        condition.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Wakes every thread in `wait(until:deadline:)`; call after changing the state they wait for.
    @_spi(Engine) public func broadcast() {
        pthread_mutex_lock(mutex)
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }

    /// Blocks until `done()` (checked under the lock) is true or `deadline` passes; true if done.
    @_spi(Engine) public func wait(until done: () -> Bool, deadline: Deadline) -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !done() {
            guard let limit = deadline.monotonicTimespec else { pthread_cond_wait(condition, mutex); continue }
            var time = limit
            if pthread_cond_timedwait(condition, mutex, &time) == ETIMEDOUT { return done() }
        }
        return true
    }

    @_spi(Engine) public func lock() { pthread_mutex_lock(mutex) }
    @_spi(Engine) public func unlock() { pthread_mutex_unlock(mutex) }
    @_spi(Engine) public func tryLock() -> Bool { pthread_mutex_trylock(mutex) == 0 }

    @_spi(Engine) public func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
