package io.github.resiliencestarter.idempotent.support;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONReader;
import com.alibaba.fastjson2.JSONWriter;
import io.github.resiliencestarter.idempotent.ResponseCodec;
import java.lang.reflect.Type;

/**
 * Encodes results as JSON with fastjson2 and decodes them with the method's declared generic type.
 * AutoType stays off and no type name is written, so stored data can never choose a class to
 * instantiate; unknown fields fail the decode instead of being silently dropped.
 */
public class Fastjson2ResponseCodec implements ResponseCodec {

    private static final JSONWriter.Feature[] WRITE = {JSONWriter.Feature.WriteNulls,
        JSONWriter.Feature.FieldBased, JSONWriter.Feature.ReferenceDetection};

    private static final JSONReader.Feature[] READ = {JSONReader.Feature.FieldBased,
        JSONReader.Feature.ErrorOnUnknownProperties};

    @Override
    public String encode(Object value, Type type) {
        return JSON.toJSONString(value, WRITE);
    }

    @Override
    public Object decode(String payload, Type type) {
        return JSON.parseObject(payload, type, READ);
    }
}
