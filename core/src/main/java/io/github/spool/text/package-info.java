/**
 * Text primitives both adapters share: allocation-free UTF-8 encoding of any
 * {@link java.lang.CharSequence} ({@link io.github.spool.text.Utf8}) and the growable byte line a
 * layout encodes one event into ({@link io.github.spool.text.ByteLineBuilder}), and the cache of
 * thread and logger names already rendered and encoded ({@link io.github.spool.text.NameCache}).
 */
package io.github.spool.text;
