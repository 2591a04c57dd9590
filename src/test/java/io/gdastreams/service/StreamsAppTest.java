package io.gdastreams.service;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gdastreams.settings.AppConfig;
import java.util.Properties;
import org.apache.kafka.streams.CloseOptions.GroupMembershipOperation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Whether a closing service leaves its consumer group (RestartLatencyIT measures what that changes). */
class StreamsAppTest {

    private static Properties streams() {
        Properties properties = new Properties();
        properties.put("application.id", "gda-streams-scoring");
        properties.put("bootstrap.servers", "localhost:9092");
        return properties;
    }

    @Test
    void shouldLeaveTheGroupOnCloseAsADynamicMember() {
        assertEquals(GroupMembershipOperation.LEAVE_GROUP, StreamsApp.membershipOnClose(streams()));
    }

    @Test
    void shouldLeaveTheGroupOnCloseWithTheProductDefaults() {
        Properties properties = AppConfig.defaults().withKafka("bootstrap.servers", "localhost:9092")
                .streamsProperties("scoring");
        assertEquals(GroupMembershipOperation.LEAVE_GROUP, StreamsApp.membershipOnClose(properties));
    }

    @ParameterizedTest
    @ValueSource(strings = {"group.instance.id", "consumer.group.instance.id", "main.consumer.group.instance.id"})
    void shouldStayInTheGroupOnCloseAsAStaticMemberWhicheverWayTheIdIsSet(String key) {
        Properties properties = streams();
        properties.put(key, "scorer-1");
        assertEquals(GroupMembershipOperation.REMAIN_IN_GROUP, StreamsApp.membershipOnClose(properties));
    }
}
