/** Ready-made parts: the in-memory store, the near cache, a forwarding base for decorators and the fastjson2 response codec. */
@NullMarked
package io.github.resiliencestarter.idempotent.support;

import org.jspecify.annotations.NullMarked;
