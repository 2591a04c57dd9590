package io.gdastreams.model;

import java.util.List;
import java.util.Map;

/**
 * An unlabelled event that arrived before any model existed, held by the scorer until the first model arrives
 * (the value of the scorer's pending store). It keeps where it came from and its original bytes, so that an event
 * the model then cannot score (unknown features) is dead-lettered like any other.
 *
 * <p>Two forms, both read by the current scorer: entries written since the source was kept carry
 * {@code topic}/{@code partition}/{@code offset} and the original {@code value} (the features are decoded again
 * from it on release, so the entry is never larger than the value plus its key), and {@code features} is null;
 * entries written before carry {@code features} only (the new fields are absent from their JSON and read as
 * null). An older scorer reading a new entry ignores the new fields and finds no features.
 *
 * <p>Why the older form stays: the pending store is changelog-backed, so entries an earlier scorer held (before the
 * source was kept) survive in its changelog topic and come back on restore after an upgrade; dropping the form
 * would make such an entry unreadable and stop the task. They are released like any other: scored, or answered
 * unscored and dead-lettered without source coordinates ({@code ScoringHostileInputTest
 * .shouldReadAndReleaseHeldEntriesOfTheOlderFormWithoutSource}). Nothing writes the older form any more: it is
 * only read, through the JSON layout (absent fields read as null).
 *
 * @param key       the original record key, byte for byte (null when the record had none)
 * @param id        event id, else the record key as text; may be null
 * @param features  feature values by name (missing features are simply absent); null when {@code value} is kept
 * @param timestamp the original record timestamp, kept on the eventual output
 * @param topic     source topic; null in entries of the older form
 * @param partition source partition; null in entries of the older form
 * @param offset    source offset; null in entries of the older form
 * @param value     the original record value, byte for byte; null in entries of the older form
 * @param headers   the original record headers that its answer carries (within the bound every output keeps), in
 *                  order; null when it had none, and in entries written before headers were kept
 */
public record PendingEvent(byte[] key, String id, Map<String, Double> features, long timestamp, String topic,
                           Integer partition, Long offset, byte[] value, List<Header> headers) {

    /** One record header: its name and value, byte for byte (null when the record's was). */
    public record Header(String key, byte[] value) {
    }
}
