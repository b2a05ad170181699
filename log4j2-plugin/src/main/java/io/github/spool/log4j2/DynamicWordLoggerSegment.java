package io.github.spool.log4j2;

import org.apache.logging.log4j.core.LogEvent;

/**
 * {@code %c{1.N*}}: keeps the last {@code N} dot-separated words of the logger name and shortens
 * each earlier word to its first character: with {@code {1.1*}}, {@code org.apache.Foo} prints as
 * {@code o.a.Foo}.
 * A transcription of log4j2's {@code DynamicWordAbbreviator} (empty words between dots are
 * skipped, as its {@code split} does) that walks the name in place instead of splitting it, so it
 * allocates nothing. Internal API.
 */
final class DynamicWordLoggerSegment extends Segment {

    private final int rightWordCount;

    DynamicWordLoggerSegment(int rightWordCount) {
        this.rightWordCount = rightWordCount;
    }

    @Override
    public void encode(LogEvent event, LineBuffer out, StringBuilder scratch) {
        scratch.setLength(0);
        format(event, scratch);
        out.append(scratch);
    }

    @Override
    public void format(LogEvent event, StringBuilder sb) {
        String name = event.getLoggerName();
        if (name == null) {
            return; // log4j2 appends nothing for a null name here
        }
        int wordCount = countWords(name);
        if (rightWordCount >= wordCount) {
            sb.append(name);
            return;
        }
        int lastAbbreviated = wordCount - rightWordCount;
        int word = 0;
        int i = 0;
        int n = name.length();
        while (i < n) {
            int dot = name.indexOf('.', i);
            int end = dot < 0 ? n : dot;
            if (end > i) { // a non-empty word
                if (word >= lastAbbreviated) {
                    sb.append(name, i, end);
                    if (word < wordCount - 1) {
                        sb.append('.');
                    }
                } else {
                    sb.append(name.charAt(i)).append('.');
                }
                word++;
            }
            i = end + 1;
        }
    }

    private static int countWords(String name) {
        int count = 0;
        int i = 0;
        int n = name.length();
        while (i < n) {
            int dot = name.indexOf('.', i);
            int end = dot < 0 ? n : dot;
            if (end > i) {
                count++;
            }
            i = end + 1;
        }
        return count;
    }
}
