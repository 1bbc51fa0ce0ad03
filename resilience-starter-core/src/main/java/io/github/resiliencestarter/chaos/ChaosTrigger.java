package io.github.resiliencestarter.chaos;

/** When a fault is injected. */
public enum ChaosTrigger {

    /** Into its share of every matching call. */
    ALWAYS,

    /** Only into calls of requests that name the fault in the chaos header, from an allowed caller. */
    HEADER
}
