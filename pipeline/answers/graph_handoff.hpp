// How a thread outside a flow graph (a dispatcher's) hands work back into it through an
// async_node's gateway, told to ThreadSanitizer.
//
// oneTBB orders what that thread does before gateway.try_put (or release_wait) before what the
// graph's thread does after receiving the message (or after wait_for_all returns), but Debian's
// libtbb is not instrumented, so ThreadSanitizer cannot see that order and would report every
// read on the far side as a race. These types and functions announce the order at those points
// (release, then acquire), so that all else the threads do is still checked. In other builds they
// are the shared_ptr and nothing more. What remains is oneTBB's own copy of a HandedOver into its
// task (on the putting thread) and its read there (on the graph's thread): tools/sanitizers/
// tsan.supp names this file for them.
#pragma once

#include <memory>
#include <utility>

#ifdef __SANITIZE_THREAD__
#include <sanitizer/tsan_interface.h>
#endif

namespace gamebatch::pipeline {

// The message of the gateway's edge: a shared object, released when made and acquired when taken.
template <class Object>
class HandedOver {
 public:
  HandedOver() = default;  // flow graph messages must be default-constructible
  // Call on the putting thread, after its last write to the object.
  explicit HandedOver(std::shared_ptr<Object> object) : object_(std::move(object)) {
#ifdef __SANITIZE_THREAD__
    __tsan_release(object_.get());
#endif
  }

  // Call on the receiving thread, before its first read of the object.
  [[nodiscard]] std::shared_ptr<Object> take() const {
#ifdef __SANITIZE_THREAD__
    __tsan_acquire(object_.get());
#endif
    return object_;
  }

 private:
  std::shared_ptr<Object> object_;
};

// Call on the outside thread just before gateway.release_wait(), and on the graph's owner just
// after graph.wait_for_all() returns (before it destroys the nodes), with the same gateway.
template <class Gateway>
void before_release_wait([[maybe_unused]] Gateway& gateway) {
#ifdef __SANITIZE_THREAD__
  __tsan_release(&gateway);
#endif
}
template <class Gateway>
void after_wait_for_all([[maybe_unused]] Gateway& gateway) {
#ifdef __SANITIZE_THREAD__
  __tsan_acquire(&gateway);
#endif
}

}  // namespace gamebatch::pipeline
