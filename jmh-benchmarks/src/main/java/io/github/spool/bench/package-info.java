/** JMH micro-benchmarks and end-to-end benchmark programs comparing Spool with its anchors. */
package io.github.spool.bench;
