package io.github.resiliencestarter.idempotent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONWriter;
import io.github.resiliencestarter.idempotent.support.Fastjson2ResponseCodec;
import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ResponseCodecTest {

    private final ResponseCodec codec = new Fastjson2ResponseCodec();

    /** A generic wrapper like the documents' {@code Result<T>}. */
    public static class Result<T> {

        private int code;

        private String message;

        private T data;

        public Result() {
        }

        Result(int code, String message, T data) {
            this.code = code;
            this.message = message;
            this.data = data;
        }

        public T getData() {
            return data;
        }

        public int getCode() {
            return code;
        }

        public String getMessage() {
            return message;
        }
    }

    /** An order as a record. */
    public record OrderDto(String orderNo, long userId, BigDecimal amount, List<String> tags) {
    }

    interface Signatures {

        Result<String> result();

        List<OrderDto> orders();

        OrderDto order();

        Optional<OrderDto> maybe();

        Map<String, List<Integer>> nested();
    }

    private static Type typeOf(String method) throws NoSuchMethodException {
        Method m = Signatures.class.getDeclaredMethod(method);
        return m.getGenericReturnType();
    }

    @SuppressWarnings("unchecked")
    @Test
    void I5_aResultOfStringReplaysAsAResultOfString() throws Exception {
        Type type = typeOf("result");
        Object decoded = codec.decode(codec.encode(new Result<>(0, "ok", "ORDER-1"), type), type);

        assertThat(decoded).isInstanceOf(Result.class);
        Result<String> result = (Result<String>) decoded;
        assertThat(result.getData()).isInstanceOf(String.class).isEqualTo("ORDER-1");
        assertThat(result.getCode()).isZero();
        assertThat(result.getMessage()).isEqualTo("ok");
    }

    @Test
    void I5_listsOfRecordsOptionalsAndNestedGenericsRoundTrip() throws Exception {
        OrderDto order = new OrderDto("A-1", 7, new BigDecimal("12.50"), List.of("new", "vip"));
        Type list = typeOf("orders");
        assertThat(codec.decode(codec.encode(List.of(order, order), list), list)).isEqualTo(List.of(order, order));
        Type single = typeOf("order");
        assertThat(codec.decode(codec.encode(order, single), single)).isEqualTo(order);
        Type nested = typeOf("nested");
        Map<String, List<Integer>> map = Map.of("a", List.of(1, 2));
        assertThat(codec.decode(codec.encode(map, nested), nested)).isEqualTo(map);
        Type maybe = typeOf("maybe");
        assertThat(codec.decode(codec.encode(Optional.of(order), maybe), maybe)).isEqualTo(Optional.of(order));
        assertThat(codec.decode(codec.encode(Optional.empty(), maybe), maybe)).isEqualTo(Optional.empty());
        assertThat(codec.decode(codec.encode(null, single), single)).isNull();
    }

    @Test
    void I5_scalarResultsAreWrittenAsFastjsonWritesThemAndReplayAsTheirType() {
        Object[] values = {42, -7L, Long.MAX_VALUE, true, (short) 3, (byte) -1, null};
        Class<?>[] types = {Integer.class, long.class, Long.class, boolean.class, Short.class, byte.class, Integer.class};
        for (int i = 0; i < values.length; i++) {
            String encoded = codec.encode(values[i], types[i]);
            // the shortcut must not change what is stored: the same text as fastjson2's own writer
            assertThat(encoded).isEqualTo(JSON.toJSONString(values[i], JSONWriter.Feature.WriteNulls));
            assertThat(codec.decode(encoded, types[i])).isEqualTo(values[i]);
        }
    }

    @Test
    void storedDataCannotChooseTheClassThatIsInstantiated() throws Exception {
        Type single = typeOf("order");
        String hostile = "{\"@type\":\"java.net.URL\",\"val\":\"http://127.0.0.1/\"}";
        for (Type type : new Type[] {single, Object.class}) {
            Object decoded;
            try {
                decoded = codec.decode(hostile, type);
            } catch (RuntimeException rejected) {
                decoded = null;
            }
            assertThat(decoded).isNotInstanceOf(java.net.URL.class);
        }
        // a payload of another shape is refused for classes (fastjson2 does not apply this to records)
        Type result = typeOf("result");
        assertThatThrownBy(() -> codec.decode("{\"code\":0,\"unexpected\":1}", result))
                .isInstanceOf(RuntimeException.class);
        assertThatThrownBy(() -> codec.decode("not json at all", single)).isInstanceOf(RuntimeException.class);
    }
}
