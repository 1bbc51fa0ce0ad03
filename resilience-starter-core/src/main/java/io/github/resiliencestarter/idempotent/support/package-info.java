/** Ready-made parts: the in-memory store and the fastjson2 response codec. */
package io.github.resiliencestarter.idempotent.support;
